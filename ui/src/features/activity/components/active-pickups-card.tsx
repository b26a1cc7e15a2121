import { TruckIcon } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useActivePickups } from "@/features/activity/api/get-active-pickups";
import { useNow } from "@/hooks/use-now";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import { displayName } from "@/lib/user";

/** ActivePickupsCard lists who holds picked-up batteries in the field now (admins, 60 s). */
export function ActivePickupsCard() {
  const { data, isLoading, isError } = useActivePickups();
  const now = useNow();
  const total = (data ?? []).reduce((s, p) => s + p.quantity, 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <TruckIcon aria-hidden className="size-5 text-muted-foreground" />
          Drivers in the Field
        </CardTitle>
        <CardDescription>
          {data ? `${data.length} ${data.length === 1 ? "driver holds" : "drivers hold"} ${total} picked-up ${total === 1 ? "battery" : "batteries"}` : "Open pickups"}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Skeleton className="h-24" />
        ) : isError ? (
          <p className="text-sm text-destructive">Unable to load active pickups</p>
        ) : !data || data.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No batteries picked up right now</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Driver</TableHead>
                <TableHead className="text-right">Batteries</TableHead>
                <TableHead>Since</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.map((p) => (
                <TableRow key={p.id}>
                  <TableCell className="font-medium">{displayName(p.user)}</TableCell>
                  <TableCell className="text-right tabular-nums">{p.quantity}</TableCell>
                  <TableCell title={formatDateTime(p.date)}>{formatRelativeTime(p.date, now)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
