import { ShieldAlertIcon } from "lucide-react";
import { Outlet } from "react-router";
import { BackHomeMessage } from "@/components/feedback/message-card";
import { useUser } from "@/lib/auth";
import type { Role } from "@/lib/user";

/**
 * RequireRole renders its child routes only for the given roles; others get an
 * 'Access Denied' card (the server refuses their calls anyway). Use inside SignedInLayout.
 */
export function RequireRole({ roles }: { roles: readonly Role[] }) {
  const { data: user } = useUser();
  if (user && roles.includes(user.role)) return <Outlet />;
  return <BackHomeMessage icon={ShieldAlertIcon} title="Access Denied" description="Your role does not give access to this page." />;
}
