import { PageHeader } from "@/components/layouts/app-shell";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { type User, displayName } from "@/lib/user";

/** DriverHome is the driver dashboard at / (stats, battery form, photos, activity: to be built). */
export function DriverHome({ user }: { user: User }) {
  return (
    <>
      <PageHeader title="Driver Home" description={`Welcome, ${displayName(user)}`} />
      <Card>
        <CardHeader>
          <CardTitle>Your Batteries</CardTitle>
          <CardDescription>Your stats, the check-out/return form, photo sending and your activity appear here.</CardDescription>
        </CardHeader>
        <CardContent />
      </Card>
    </>
  );
}
