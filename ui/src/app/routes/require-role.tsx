import { ShieldAlertIcon } from "lucide-react";
import { Link, Outlet } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
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
    <Card className="mx-auto max-w-md text-center">
      <CardHeader>
        <ShieldAlertIcon aria-hidden className="mx-auto size-10 text-destructive" />
        <CardTitle asChild className="text-xl">
          <h1>Access Denied</h1>
        </CardTitle>
        <CardDescription>Your role does not give access to this page.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to={paths.home.path}>Back to Home</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
