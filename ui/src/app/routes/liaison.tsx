import { LiaisonDashboard } from "@/features/liaison/components/liaison-dashboard";
import { useUser } from "@/lib/auth";

/** LiaisonRoute is /liaison and /liaison-console: the corporate liaison screen. */
export function LiaisonRoute() {
  const { data: user } = useUser();
  return user ? <LiaisonDashboard user={user} /> : null;
}
