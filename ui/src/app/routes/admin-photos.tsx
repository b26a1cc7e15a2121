import { PhotosPage } from "@/features/photos/components/photos-page";
import { useUser } from "@/lib/auth";
import { isAdminRole, isLiaisonRole } from "@/lib/user";

/** AdminPhotosRoute is /admin-photos: the Photos page (admins and the liaison may delete). */
export function AdminPhotosRoute() {
  const { data: user } = useUser();
  const canDelete = !!user && (isAdminRole(user.role) || isLiaisonRole(user.role));
  return <PhotosPage canDelete={canDelete} />;
}
