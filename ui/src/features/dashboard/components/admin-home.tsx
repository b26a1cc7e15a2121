import { PageHeader } from "@/components/layouts/app-shell";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { type User, displayName } from "@/lib/user";

/** AdminHome is the admin dashboard at / (earnings, pay rates, charging, activity: to be built). */
export function AdminHome({ user }: { user: User }) {
  return (
    <>
      <PageHeader title="Home" description={`Welcome, ${displayName(user)}`} />
      <Card>
        <CardHeader>
          <CardTitle>Admin Dashboard</CardTitle>
          <CardDescription>Inventory, earnings, pay rates, charging sessions and the activity feed appear here.</CardDescription>
        </CardHeader>
        <CardContent />
      </Card>
    </>
  );
}
