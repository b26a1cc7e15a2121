import { Link, useNavigate } from "react-router";
import { OptionSelect } from "@/components/option-select";
import { cn } from "@/lib/utils";

/** NavTab is one entry of a TabNav: where it goes and what it says. */
export type NavTab = { path: string; label: string };

/**
 * TabNav is a screen set's navigation: a row of tabs on wide screens, a dropdown on small ones,
 * both named label ("Admin": the dropdown is "Admin navigation"). current is highlighted.
 */
export function TabNav({ label, tabs, current }: { label: string; tabs: readonly NavTab[]; current: NavTab | undefined }) {
  const navigate = useNavigate();
  return (
    <div className="border-b bg-background">
      <nav aria-label={label} className="mx-auto hidden max-w-7xl gap-1 overflow-x-auto px-4 md:flex">
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
      <nav aria-label={label} className="px-4 py-2 md:hidden">
        <OptionSelect
          value={current?.path ?? ""}
          onValueChange={(path) => navigate(path)}
          options={tabs.map((tab) => ({ value: tab.path, label: tab.label }))}
          placeholder="Go to..."
          aria-label={`${label} navigation`}
        />
      </nav>
    </div>
  );
}
