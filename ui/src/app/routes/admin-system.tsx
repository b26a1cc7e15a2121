import { useQuery } from "@tanstack/react-query";
import { PageHeader } from "@/components/layouts/app-shell";
import { Skeleton } from "@/components/ui/skeleton";
import { BackupsCard } from "@/features/backups/components/backups-card";
import { ReplicationCard } from "@/features/replication/components/replication-card";
import { CleanSlateCard } from "@/features/system/components/clean-slate-card";
import { HistoryWipeCard } from "@/features/system/components/history-wipe-card";
import { SignInFailuresCard } from "@/features/system/components/sign-in-failures-card";
import { AuditListCard } from "@/features/system/components/audit-list-card";
import { HeadOfficeCard } from "@/features/headoffice/components/head-office-card";
import { SystemSettingsForm } from "@/features/system/components/system-settings-form";
import { PackSettingsCard } from "@/features/packs/components/pack-settings-card";
import { adminAttentionQueryOptions } from "@/features/dashboard/api/get-attention";
import { EmergencyOverrideForm } from "@/features/inventory/components/emergency-override-form";
import { RecalculateInventoryCard } from "@/features/inventory/components/recalculate-inventory-card";
import { useUser } from "@/lib/auth";
import { Lazy, loadable } from "@/lib/loadable";
import { isMasterAdmin } from "@/lib/user";

// The terms editor carries tiptap: its own chunk, fetched only on this page (issue 14).
const termsEditor = loadable(() => import("@/features/terms/components/terms-editor").then((m) => m.TermsEditor));
const agreementsTable = loadable(() => import("@/features/terms/components/agreements-table").then((m) => m.AgreementsTable));

/**
 * AdminSystemRoute is /admin-system: the spec's seven blocks in order (spec part 2 §2), each
 * a feature's component (6 and 7, the terms editor and the signed agreements, load lazily), plus the scheduled backups (DESIGN.md §11), the continuous replication (DESIGN.md §13: its status for admins, its settings for a master admin) the failed sign-ins (SECURITY.md) and the audit list of changes made in the data dashboard (issue 43) after the settings.
 * The pack tracking settings (DESIGN.md §14), head office's tokens (DESIGN.md §15), the history wipe and the clean slate are shown to master admins only: the server refuses
 * anyone else (403).
 */
export function AdminSystemRoute() {
  const { data: user } = useUser();
  const master = isMasterAdmin(user?.role);
  // the bay's batteries no pack names yet, once required is saved: the pack card's hint to count the bay
  const attention = useQuery({ ...adminAttentionQueryOptions, enabled: master });
  return (
    <>
      <PageHeader title="System" description="Settings, history, backups and the inventory's safety tools." />
      <div className="grid grid-cols-1 gap-6">
        <SystemSettingsForm />
        {master && <PackSettingsCard unnamedInBay={attention.data?.unnamedInBay} />}
        <BackupsCard />
        <ReplicationCard />
        <SignInFailuresCard />
        <AuditListCard />
        {master && <HeadOfficeCard />}
        {master && <HistoryWipeCard />}
        {master && <CleanSlateCard />}
        <EmergencyOverrideForm />
        <RecalculateInventoryCard />
        <Lazy of={termsEditor} fallback={<Skeleton className="h-96 w-full" />} />
        <Lazy of={agreementsTable} fallback={<Skeleton className="h-48 w-full" />} />
      </div>
    </>
  );
}
