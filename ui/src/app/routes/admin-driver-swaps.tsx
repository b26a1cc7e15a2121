import { PageHeader } from "@/components/layouts/app-shell";
import { StartChargingForm } from "@/features/charging/components/start-charging-form";
import { BatteryHoldersCard } from "@/features/custody/components/battery-holders-card";
import { DeadBatteryTransferCard } from "@/features/custody/components/dead-battery-transfer-card";
import { DriverSwapCard } from "@/features/custody/components/driver-swap-card";
import { ManualAssignmentForm } from "@/features/custody/components/manual-assignment-form";
import { useInventory } from "@/lib/inventory";
import { useUser } from "@/lib/auth";

/**
 * AdminDriverSwapsRoute is /admin-driver-swaps, Driver Management (spec part 2 §2): Start
 * Charging Session, Manual Battery Assignment, Driver-to-Driver Battery Swap, Dead Battery
 * Transfer and All Battery Holders.
 */
export function AdminDriverSwapsRoute() {
  const { data: user } = useUser();
  const inventory = useInventory();
  if (!user) return null;
  return (
    <>
      <PageHeader title="Driver Management" description="Assign batteries, record swaps between drivers and see who holds what." />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <StartChargingForm waiting={inventory.data?.waiting} />
        <ManualAssignmentForm ready={inventory.data?.ready} />
        <DriverSwapCard />
        <DeadBatteryTransferCard />
        <div className="lg:col-span-2">
          <BatteryHoldersCard role={user.role} />
        </div>
      </div>
    </>
  );
}
