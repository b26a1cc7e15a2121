// What each visitor's first screen at / asks for, from the features' own query definitions:
// the ONE first-screen list (its route modules in app/first-screen-routes.ts). The build (build/boot-script.ts) writes index.html's boot script
// from it, so the boot script asks for these calls and preloads these chunks while the app's
// JavaScript downloads (lib/api-client.ts getJSON hands their answers to the queries), and the
// router (app/router.tsx preloadRoute) preloads the same route modules at run time. A query
// whose key changes changes the boot script with it. Keep this module free of browser
// globals: the build imports it in Node.
import { adminRecentActivityQueryOptions } from "@/features/activity/api/get-recent-activity";
import { adminChargingSessionsQueryOptions } from "@/features/charging/api/get-charging-sessions";
import { adminAttentionQueryOptions } from "@/features/dashboard/api/get-attention";
import { deadBatteryStatsQueryOptions } from "@/features/dashboard/api/get-dead-battery-stats";
import { driverRecentMovementsQueryOptions } from "@/features/activity/api/get-recent-activity";
import { payEstimateQueryOptions } from "@/features/earnings/api/earnings";
import { heldPacksQueryOptions } from "@/features/packs/api/get-packs";
import { AUTH_USER_URL } from "@/lib/auth-url";
import { queryKeyUrl } from "@/lib/api-client";
import { stateQueryOptions } from "@/lib/state";
import { adminWeeklyActivityQueryOptions } from "@/lib/weekly-activity";
import { FIRST_SCREEN_ROUTES, GUEST_ROUTES } from "@/app/first-screen-routes";

/** FirstScreen is one role's first screen at /: its route modules (for the chunks) and calls. */
export type FirstScreen = { routes: string[]; api: string[] };

const url = (o: { queryKey: readonly unknown[] }) => queryKeyUrl(o.queryKey);

/** SESSION_URL is the call every screen starts from (lib/auth.ts userQueryOptions), asked on every path. */
export const SESSION_URL = AUTH_USER_URL;

const admin = [
  // the admin dashboard's first calls (home-admin.tsx): the state, the attention strip's counts
  // (under 100 bytes), charging sessions, recent activity and the weekly activity's summary (a
  // few KB; a driver's card asks for its activities when opened)
  url(stateQueryOptions),
  url(adminAttentionQueryOptions),
  url(adminChargingSessionsQueryOptions),
  url(adminRecentActivityQueryOptions),
  url(adminWeeklyActivityQueryOptions(0)),
];

/** API lists, per approved role, the calls of its first screen at /. */
const API: Record<string, string[]> = {
  admin,
  master_admin: admin,
  // the driver's home (home-driver.tsx): the state, their figures' dead batteries, the packs
  // they hold (the home's first line under pack tracking), their week's pay and their own feed
  driver: [
    url(stateQueryOptions),
    url(deadBatteryStatsQueryOptions),
    url(heldPacksQueryOptions),
    url(payEstimateQueryOptions),
    url(driverRecentMovementsQueryOptions),
  ],
  corporate_liason: [url(stateQueryOptions)],
};

export { GUEST_ROUTES };

/** FIRST_SCREENS lists, per approved role, the route modules and API calls of its first screen at /. */
export const FIRST_SCREENS: Record<string, FirstScreen> = Object.fromEntries(
  Object.entries(FIRST_SCREEN_ROUTES).map(([role, routes]) => [role, { routes, api: API[role] ?? [] }]),
);
