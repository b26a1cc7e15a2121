import { useChargingSessions } from "@/features/charging/api/get-charging-sessions";
import { NextReadyCard } from "@/features/charging/components/charging-eta-list";
import { ChargingSessionsTable } from "@/features/charging/components/charging-sessions-table";
import { PhotoGallery } from "@/features/photos/components/photo-gallery";
import { LiaisonDashboard } from "@/features/liaison/components/liaison-dashboard";
import { useUser } from "@/lib/auth";
import type { User } from "@/lib/user";

/** LiaisonCharging is the liaison's Charging tab: the next ETAs and the read-only sessions table. */
function LiaisonCharging({ role }: { role: string }) {
  const sessions = useChargingSessions("liaison");
  return (
    <>
      <NextReadyCard sessions={sessions.data ?? []} titleId="liaison-next-ready" />
      <ChargingSessionsTable role={role} readOnly />
    </>
  );
}

/**
 * LiaisonScreen is the corporate liaison's dashboard with its Charging tab composed in.
 * Rendered at /liaison and /liaison-console, and by the home route for the liaison at /.
 */
export function LiaisonScreen({ user }: { user: User }) {
  return <LiaisonDashboard user={user} charging={<LiaisonCharging role={user.role} />} photos={<PhotoGallery canDelete />} />;
}

/** LiaisonRoute is /liaison and /liaison-console: the corporate liaison screen. */
export function LiaisonRoute() {
  const { data: user } = useUser();
  return user ? <LiaisonScreen user={user} /> : null;
}
