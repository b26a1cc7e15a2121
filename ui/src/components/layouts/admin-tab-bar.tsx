import { Link, useLocation, useNavigate } from "react-router";
import { activeTab, visibleTabs } from "@/components/layouts/admin-tabs";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { cn } from "@/lib/utils";

/**
 * AdminTabBar is the admin navigation: a row of tabs on wide screens, a dropdown on small
 * ones. Only tabs the role may see are listed; the current path's tab is highlighted.
 */
export function AdminTabBar({ role }: { role: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const tabs = visibleTabs(role);
  const current = activeTab(pathname, tabs);
  return (
    <div className="border-b bg-background">
      <nav aria-label="Admin" className="mx-auto hidden max-w-7xl gap-1 overflow-x-auto px-4 md:flex">
        {tabs.map((tab) => {
          const active = tab === current;
          return (
            <Link
              key={tab.path}
              to={tab.path}
              aria-current={active ? "page" : undefined}
              className={cn(
                "border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap transition-colors",
                active ? "border-primary text-primary" : "border-transparent text-muted-foreground hover:text-foreground",
              )}
            >
              {tab.label}
            </Link>
          );
        })}
      </nav>
      <nav aria-label="Admin" className="px-4 py-2 md:hidden">
        <Select value={current?.path ?? ""} onValueChange={(path) => navigate(path)}>
          <SelectTrigger aria-label="Admin navigation">
            <SelectValue placeholder="Go to..." />
          </SelectTrigger>
          <SelectContent>
            {tabs.map((tab) => (
              <SelectItem key={tab.path} value={tab.path}>
                {tab.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </nav>
    </div>
  );
}
