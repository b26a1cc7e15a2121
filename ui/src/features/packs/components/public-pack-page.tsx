import { BatteryChargingIcon } from "lucide-react";
import * as React from "react";
import { Centered } from "@/components/feedback/centered";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { usePassport } from "@/features/packs/api/get-passport";
import { FactList } from "@/features/packs/components/fact-list";
import { PackStateBadge } from "@/components/pack-state-badge";
import { ApiError, errorMessage } from "@/lib/api-client";

/**
 * PublicPackPage is /p/<serial> for a visitor who is not an admin (what a label's QR code
 * opens, DESIGN.md §14): the pack's public passport attributes — serial, model, chemistry,
 * energy, manufacturer, month of manufacture and its state in words. It names no person and
 * no place.
 */
export function PublicPackPage({ serial }: { serial: string }) {
  const { data: passport, isPending, isError, error } = usePassport(serial);
  return (
    <Centered className="items-start sm:items-center">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <BatteryChargingIcon aria-hidden className="mx-auto size-10 text-primary" />
          <CardDescription>SwapBay battery pack</CardDescription>
          <CardTitle asChild className="font-mono text-2xl break-all">
            <h1>{passport?.swapbay.serial ?? serial}</h1>
          </CardTitle>
          {passport && (
            <p className="flex justify-center">
              <span className="sr-only">State: </span>
              <PackStateBadge state={passport.swapbay.state} />
            </p>
          )}
        </CardHeader>
        <CardContent>
          {isPending ? (
            <Skeleton className="h-48 w-full" />
          ) : isError || !passport ? (
            <p role="alert" className="text-center">
              {error instanceof ApiError && error.status === 404 ? "No pack has this serial." : errorMessage(error, "The pack could not be loaded. Please try again.")}
            </p>
          ) : (
            <PassportFacts passport={passport} />
          )}
        </CardContent>
      </Card>
    </Centered>
  );
}

function PassportFacts({ passport }: { passport: NonNullable<ReturnType<typeof usePassport>["data"]> }) {
  const p = passport.swapbay;
  const chemistry = passport.materialComposition?.batteryChemistry;
  const facts: [string, React.ReactNode][] = [
    ["Model", p.model || "—"],
    ["Chemistry", chemistry ? (chemistry.clearName !== chemistry.shortName ? `${chemistry.shortName} (${chemistry.clearName})` : chemistry.shortName) : "—"],
    ["Nominal energy", p.nominalEnergyWh ? `${p.nominalEnergyWh} Wh` : "—"],
    ["Manufacturer", p.manufacturer || "—"],
    ["Manufactured", p.manufactured || "—"],
    ["Lot", p.lot || "—"],
  ];
  return (
    <div className="space-y-4">
      <FactList facts={facts} />
      <p className="text-xs text-muted-foreground">
        Battery passport: {passport.dataModel}, light means of transport (LMT) battery. Use-phase data is shown to the operator only.
      </p>
    </div>
  );
}
