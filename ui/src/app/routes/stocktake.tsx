import { StocktakePage } from "@/features/stocktake/components/stocktake-page";
import { useUser } from "@/lib/auth";

/** StocktakeRoute is /packs/stocktake: an admin counts a place by its packs (the draft is kept under their id). */
export function StocktakeRoute() {
  const { data: user } = useUser();
  if (!user) return null;
  return <StocktakePage userId={user.id} />;
}
