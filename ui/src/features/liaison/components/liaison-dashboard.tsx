import { CameraIcon, EyeIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { paths } from "@/config/paths";
import { useAppState } from "@/lib/state";
import { AssetAssignments } from "@/features/liaison/components/asset-assignments";
import { FleetOverviewCards } from "@/features/liaison/components/fleet-overview-cards";
import { LiaisonUserMenu } from "@/features/liaison/components/liaison-user-menu";
import { PersonnelPerformance } from "@/features/liaison/components/personnel-performance";
import { RecentDropoffs } from "@/features/liaison/components/recent-dropoffs";
import { WeeklyPerformance } from "@/features/liaison/components/weekly-performance";
import type { User } from "@/lib/user";

/** LiaisonDashboardProps: the signed-in user and the Charging tab's content. */
export type LiaisonDashboardProps = {
  user: User;
  /**
   * charging is the Charging tab's content (the read-only charging sessions table and ETA
   * list, composed in app/routes/liaison.tsx since features don't import each other).
   */
  charging?: React.ReactNode;
  /** photos is the Photos tab's content (the photo gallery, composed in app/routes/liaison.tsx). */
  photos?: React.ReactNode;
};

/**
 * LiaisonDashboard is the corporate liaison's view-only operations dashboard (spec part 1
 * §2): title with the 'View-Only Access' badge, the user menu, and the Overview, Charging,
 * Drop-offs and Photos tabs. Its only write control is deleting photos.
 */
export function LiaisonDashboard({ user, charging, photos }: LiaisonDashboardProps) {
  const state = useAppState();
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight">Operations Dashboard</h1>
          <Badge variant="secondary" className="gap-1">
            <EyeIcon aria-hidden /> View-Only Access
          </Badge>
        </div>
        <LiaisonUserMenu user={user} />
      </div>
      <Tabs defaultValue="overview" className="gap-4">
        <TabsList aria-label="Dashboard sections" className="w-full sm:w-fit">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="charging">Charging</TabsTrigger>
          <TabsTrigger value="dropoffs">Drop-offs</TabsTrigger>
          <TabsTrigger value="photos">Photos</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="grid grid-cols-1 gap-6">
          <FleetOverviewCards stats={state.data?.stats} />
          <WeeklyPerformance inField={state.data?.stats.inField} />
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <AssetAssignments />
            <PersonnelPerformance />
          </div>
        </TabsContent>
        <TabsContent value="charging" className="grid grid-cols-1 gap-6">
          {charging ?? (
            <p className="text-sm text-muted-foreground">
              Charging sessions are shown on the <Link to={paths.liaisonConsole.path} className="underline">Liaison Console</Link>.
            </p>
          )}
        </TabsContent>
        <TabsContent value="dropoffs">
          <RecentDropoffs movements={state.data?.recentMovements} loading={state.isPending} />
        </TabsContent>
        <TabsContent value="photos">
          {photos ?? (
            <Card role="region" aria-labelledby="photos-title">
              <CardHeader>
                <CardTitle id="photos-title">Broken Scooter Photos</CardTitle>
                <CardDescription>Photos of broken scooters that drivers send in.</CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col items-center gap-2 py-8 text-center text-muted-foreground">
                <CameraIcon aria-hidden className="size-10" />
                <p>No photos uploaded yet. Photos from drivers will appear here.</p>
              </CardContent>
            </Card>
          )}
        </TabsContent>
      </Tabs>
    </>
  );
}
