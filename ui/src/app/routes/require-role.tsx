import { ShieldAlertIcon } from "lucide-react";
import { Link, Outlet } from "react-router";
import { Button } from "@/components/ui/button";
import { MessageCard } from "@/components/feedback/message-card";
import { paths } from "@/config/paths";
import { useUser } from "@/lib/auth";
import type { Role } from "@/lib/user";

/**
 * RequireRole renders its child routes only for the given roles; others get an
 * 'Access Denied' card (the server refuses their calls anyway). Use inside SignedInLayout.
 */
export function RequireRole({ roles }: { roles: readonly Role[] }) {
  const { data: user } = useUser();
  if (user && roles.includes(user.role)) return <Outlet />;
  return (
    <MessageCard
      icon={<ShieldAlertIcon aria-hidden className="text-destructive" />}
      title="Access Denied"
      description="Your role does not give access to this page."
    >
      <Button asChild variant="outline" className="mx-auto">
        <Link to={paths.home.path}>Back to Home</Link>
      </Button>
    </MessageCard>
  );
}
