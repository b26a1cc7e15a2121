import { paths } from "@/config/paths";
import { isAdminRole } from "@/lib/user";

/** AdminTab is one entry of the admin tab bar. */
export type AdminTab = { label: string; path: string; adminOnly?: boolean };

/** ADMIN_TABS are the admin tab bar's tabs in order (spec part 1 §2); /admin-emergency is not one. */
export const ADMIN_TABS: readonly AdminTab[] = [
  { label: "Home", path: paths.home.path },
  { label: "Driver Console", path: paths.adminConsole.path },
  { label: "Charging", path: paths.adminCharging.path },
  { label: "Driver Management", path: paths.adminDriverSwaps.path },
  { label: "Dropoff Notes", path: paths.adminDropoffNotes.path },
  { label: "Photos", path: paths.adminPhotos.path },
  { label: "Packs", path: paths.packs.path },
  { label: "Users", path: paths.adminUsers.path },
  { label: "System", path: paths.adminSystem.path },
];

/**
 * visibleTabs returns the tabs role may see: an adminOnly tab (none is, today) is hidden from
 * roles other than admin, master_admin and corporate_liason.
 */
export function visibleTabs(role: string | undefined, tabs: readonly AdminTab[] = ADMIN_TABS): AdminTab[] {
  return tabs.filter((t) => !t.adminOnly || isAdminRole(role) || role === "corporate_liason");
}

/** activeTab is the tab whose path is the current path ('/' only matches exactly). */
export function activeTab(pathname: string, tabs: readonly AdminTab[] = ADMIN_TABS): AdminTab | undefined {
  return tabs.find((t) => (t.path === "/" ? pathname === "/" : pathname === t.path || pathname.startsWith(`${t.path}/`)));
}
