import { Navigate, generatePath, useParams } from "react-router";
import { AuthLoadingScreen } from "@/components/feedback/loading-screen";
import { paths } from "@/config/paths";
import { PublicPackPage } from "@/features/packs/components/public-pack-page";
import { useUser } from "@/lib/auth";
import { isAdminRole } from "@/lib/user";

/**
 * PackLabelRoute is /p/<serial>, what a label's QR code opens, signed in or not: a signed-in
 * admin is taken to the pack page; anyone else (signed out, a driver, the liaison) sees the
 * pack's public passport page.
 */
export function PackLabelRoute() {
  const { serial = "" } = useParams();
  const { data: user, isPending } = useUser();
  const upper = serial.toUpperCase();
  if (isPending) return <AuthLoadingScreen />;
  if (user && isAdminRole(user.role) && user.isApproved === "approved") return <Navigate to={generatePath(paths.pack.path, { serial: upper })} replace />;
  return <PublicPackPage serial={upper} />;
}
