import { AdminHome } from "@/features/dashboard/components/admin-home";
import { DriverHome } from "@/features/dashboard/components/driver-home";
import { LiaisonDashboard } from "@/features/liaison/components/liaison-dashboard";
import { useUser } from "@/lib/auth";
import { isAdminRole, isLiaisonRole } from "@/lib/user";

/** HomeRoute is /: the role's dashboard (liaison, admin or driver). */
export function HomeRoute() {
  const { data: user } = useUser();
  if (!user) return null;
  if (isLiaisonRole(user.role)) return <LiaisonDashboard user={user} />;
  if (isAdminRole(user.role)) return <AdminHome user={user} />;
  return <DriverHome user={user} />;
}
