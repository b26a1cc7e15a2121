import { PageHeader } from "@/components/layouts/app-shell";
import { EmergencyOverrideForm } from "@/features/inventory/components/emergency-override-form";
import { InventoryStatsPanel } from "@/features/inventory/components/inventory-stats-panel";
import { RecalculateInventoryCard } from "@/features/inventory/components/recalculate-inventory-card";

/** AdminEmergencyRoute is /admin-emergency: the inventory panel, the emergency override and the recalculation. */
export function AdminEmergencyRoute() {
  return (
    <>
      <PageHeader title="Emergency Inventory" description="Correct the battery counts when they no longer match the bay." />
      <div className="grid grid-cols-1 gap-6">
        <InventoryStatsPanel />
        <EmergencyOverrideForm />
        <RecalculateInventoryCard />
      </div>
    </>
  );
}
