import { Badge } from "@/components/ui/badge";
import { packStateLabel } from "@/lib/pack-state";

const VARIANT: Record<string, "default" | "secondary" | "destructive" | "outline"> = {
  in_service: "default",
  maintenance: "secondary",
  quarantined: "destructive",
  lost: "destructive",
  retired: "outline",
  recycled: "outline",
  in_transit: "secondary",
};

/** PackStateBadge shows a pack's state ("In service", "Quarantined", …). */
export function PackStateBadge({ state }: { state: string }) {
  return <Badge variant={VARIANT[state] ?? "outline"}>{packStateLabel(state)}</Badge>;
}
