import { PageHeader } from "@/components/layouts/app-shell";
import { BackupsCard } from "@/features/backups/components/backups-card";
import { CleanSlateCard } from "@/features/system/components/clean-slate-card";
import { HistoryWipeCard } from "@/features/system/components/history-wipe-card";
import { SystemSettingsForm } from "@/features/system/components/system-settings-form";
import { EmergencyOverrideForm } from "@/features/inventory/components/emergency-override-form";
import { RecalculateInventoryCard } from "@/features/inventory/components/recalculate-inventory-card";

/**
 * AdminSystemRoute is /admin-system: the spec's seven blocks in order (spec part 2 §2), each
 * a feature's component, plus the scheduled backups (DESIGN.md §11) after the settings.
 */
export function AdminSystemRoute() {
  return (
    <>
      <PageHeader title="System" description="Settings, history, backups and the inventory's safety tools." />
      <div className="grid grid-cols-1 gap-6">
        <SystemSettingsForm />
        <BackupsCard />
        <HistoryWipeCard />
        <CleanSlateCard />
        <EmergencyOverrideForm />
        <RecalculateInventoryCard />
        {/* slot 6: terms editor (features/terms) */}
        {/* slot 7: signed agreements (features/terms) */}
      </div>
    </>
  );
}
