import { PageHeader } from "@/components/layouts/app-shell";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { User } from "@/lib/user";

/** LiaisonDashboard is the corporate liaison's operations dashboard (to be built). */
export function LiaisonDashboard(_props: { user: User }) {
  return (
    <>
      <PageHeader title="Operations Dashboard">
        <Badge variant="secondary">View-Only Access</Badge>
      </PageHeader>
      <Card>
        <CardHeader>
          <CardTitle>Overview</CardTitle>
          <CardDescription>Fleet figures, charging, drop-offs and photos appear here.</CardDescription>
        </CardHeader>
        <CardContent />
      </Card>
    </>
  );
}
