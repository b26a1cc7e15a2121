import { useParams } from "react-router";
import { RecallPage, RecallsPage } from "@/features/packs/components/recall-page";

/** PackRecallsRoute is /packs/recalls: every recall (admins). */
export function PackRecallsRoute() {
  return <RecallsPage />;
}

/** PackRecallRoute is /packs/recalls/<id>: one recall and its packs, live (admins). */
export function PackRecallRoute() {
  const { id = "" } = useParams();
  return <RecallPage id={id} />;
}
