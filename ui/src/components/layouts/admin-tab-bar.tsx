import { useLocation } from "react-router";
import { activeTab, visibleTabs } from "@/components/layouts/admin-tabs";
import { TabNav } from "@/components/layouts/tab-nav";

/**
 * AdminTabBar is the admin navigation: a row of tabs on wide screens, a dropdown on small
 * ones. Only tabs the role may see are listed; the current path's tab is highlighted.
 */
export function AdminTabBar({ role }: { role: string }) {
  const { pathname } = useLocation();
  const tabs = visibleTabs(role);
  return <TabNav label="Admin" tabs={tabs} current={activeTab(pathname, tabs)} />;
}
