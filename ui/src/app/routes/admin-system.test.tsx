import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role } from "@/lib/user";

// Each block is its feature's own component; here only which of them the route shows matters.
const role = vi.hoisted(() => ({ current: "admin" as Role }));
vi.mock("@/lib/auth", () => ({ useUser: () => ({ data: { role: role.current } }) }));
vi.mock("@/components/layouts/app-shell", () => ({ PageHeader: ({ title }: { title: string }) => <h1>{title}</h1> }));
const block = (name: string) => () => <section aria-label={name} />;
vi.mock("@/features/backups/components/backups-card", () => ({ BackupsCard: block("Backups") }));
vi.mock("@/features/replication/components/replication-card", () => ({ ReplicationCard: block("Replication") }));
vi.mock("@/features/system/components/system-settings-form", () => ({ SystemSettingsForm: block("System Settings") }));
vi.mock("@/features/packs/components/pack-settings-card", () => ({ PackSettingsCard: block("Pack tracking") }));
vi.mock("@/features/system/components/sign-in-failures-card", () => ({ SignInFailuresCard: block("Failed sign-ins") }));
vi.mock("@/features/system/components/audit-list-card", () => ({ AuditListCard: block("Audit List") }));
vi.mock("@/features/headoffice/components/head-office-card", () => ({ HeadOfficeCard: block("Head office") }));
vi.mock("@/features/system/components/history-wipe-card", () => ({ HistoryWipeCard: block("History Management") }));
vi.mock("@/features/system/components/clean-slate-card", () => ({ CleanSlateCard: block("Clean Slate") }));
vi.mock("@/features/inventory/components/emergency-override-form", () => ({ EmergencyOverrideForm: block("Emergency Override") }));
vi.mock("@/features/inventory/components/recalculate-inventory-card", () => ({ RecalculateInventoryCard: block("Recalculate") }));
vi.mock("@/features/terms/components/terms-editor", () => ({ TermsEditor: block("Terms") }));
vi.mock("@/features/terms/components/agreements-table", () => ({ AgreementsTable: block("Signed Agreements") }));

const { AdminSystemRoute } = await import("@/app/routes/admin-system");
const { makeQueryClient } = await import("@/lib/query-client");

// the route reads the attention counts for the pack card's hint (a master admin only)
function renderRoute() {
  vi.stubGlobal("fetch", vi.fn(async () => new Response("{}", { status: 200 })));
  render(
    <QueryClientProvider client={makeQueryClient(false)}>
      <AdminSystemRoute />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

// the first render takes seconds on a loaded machine: a generous limit
describe("AdminSystemRoute", { timeout: 60_000 }, () => {
  it("shows a plain admin neither the pack tracking settings, head office's tokens, the history wipe nor the clean slate (the server refuses them: 403)", () => {
    role.current = "admin";
    renderRoute();
    expect(screen.getByRole("region", { name: "System Settings" })).toBeDefined();
    expect(screen.getByRole("region", { name: "Emergency Override" })).toBeDefined();
    expect(screen.getByRole("region", { name: "Audit List" })).toBeDefined();
    expect(screen.queryByRole("region", { name: "History Management" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Clean Slate" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Pack tracking" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Head office" })).toBeNull();
  });
  it("shows a master admin all four", () => {
    role.current = "master_admin";
    renderRoute();
    expect(screen.getByRole("region", { name: "History Management" })).toBeDefined();
    expect(screen.getByRole("region", { name: "Clean Slate" })).toBeDefined();
    expect(screen.getByRole("region", { name: "Pack tracking" })).toBeDefined();
    expect(screen.getByRole("region", { name: "Head office" })).toBeDefined();
  });
});
