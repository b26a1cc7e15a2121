import { Badge } from "@/components/ui/badge";

const VARIANT = {
  approved: "success",
  pending: "warning",
  rejected: "destructive",
  suspended: "secondary",
} as const;

/** ApprovalBadge shows a user's approval state. */
export function ApprovalBadge({ state }: { state: string }) {
  const variant = VARIANT[state as keyof typeof VARIANT] ?? "outline";
  return (
    <Badge variant={variant} className="capitalize">
      {state}
    </Badge>
  );
}
