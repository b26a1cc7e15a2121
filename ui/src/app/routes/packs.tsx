import { useParams } from "react-router";
import { PackPage } from "@/features/packs/components/pack-page";
import { PacksPage } from "@/features/packs/components/packs-page";
import { useUser } from "@/lib/auth";
import { isAdminRole } from "@/lib/user";

/** PacksRoute is /packs: the packs list (admins and the liaison: every pack; a driver: "My packs"). */
export function PacksRoute() {
  const { data: user } = useUser();
  return <PacksPage admin={isAdminRole(user?.role)} driver={user?.role === "driver"} />;
}

/** PackRoute is /packs/<serial>: one pack's page. */
export function PackRoute() {
  const { serial = "" } = useParams();
  const { data: user } = useUser();
  return <PackPage serial={serial} admin={isAdminRole(user?.role)} />;
}
