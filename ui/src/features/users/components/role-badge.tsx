import { Badge } from "@/components/ui/badge";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";
import { roleLabel, roleLetter } from "@/lib/user";

const COLORS: Record<string, string> = {
  master_admin: "bg-purple-100 text-purple-900",
  admin: "bg-blue-100 text-blue-900",
  corporate_liason: "bg-amber-100 text-amber-900",
  driver: "bg-emerald-100 text-emerald-900",
};

/** RoleBadge shows a role's letter (M, A, L, D) with the role's name for tooltips and screen readers. */
export function RoleBadge({ role }: { role: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Badge variant="outline" className={cn("border-transparent font-mono", COLORS[role])} aria-label={roleLabel(role)}>
          {roleLetter(role)}
        </Badge>
      </TooltipTrigger>
      <TooltipContent>{roleLabel(role)}</TooltipContent>
    </Tooltip>
  );
}
