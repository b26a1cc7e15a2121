import { PackModelsPage } from "@/features/packs/components/pack-models-page";
import { useUser } from "@/lib/auth";
import { isAdminRole } from "@/lib/user";

/** PackModelsRoute is /packs/models: the pack models (admins edit; the liaison reads). */
export function PackModelsRoute() {
  const { data: user } = useUser();
  return <PackModelsPage admin={isAdminRole(user?.role)} />;
}
