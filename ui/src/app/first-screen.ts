// What each visitor's first screen at / asks for, from the features' own query definitions:
// the build (build/boot-script.ts) writes index.html's boot script from this list, so the
// boot script asks for these calls while the app's JavaScript downloads and lib/api-client.ts
// getJSON hands their answers to the queries. A query whose key changes changes the boot
// script with it. Keep this module free of browser globals: the build imports it in Node.
import { adminRecentActivityQueryOptions } from "@/features/activity/api/get-recent-activity";
import { adminChargingSessionsQueryOptions } from "@/features/charging/api/get-charging-sessions";
import { adminAttentionQueryOptions } from "@/features/dashboard/api/get-attention";
import { AUTH_USER_URL } from "@/lib/auth-url";
import { queryKeyUrl } from "@/lib/api-client";
import { stateQueryOptions } from "@/lib/state";
import { adminWeeklyActivityQueryOptions } from "@/lib/weekly-activity";

/** FirstScreen is one role's first screen at /: its route modules (for the chunks) and calls. */
export type FirstScreen = { routes: string[]; api: string[] };

const url = (o: { queryKey: readonly unknown[] }) => queryKeyUrl(o.queryKey);

/** SESSION_URL is the call every screen starts from (lib/auth.ts userQueryOptions), asked on every path. */
export const SESSION_URL = AUTH_USER_URL;

const shell = ["src/app/routes/signed-in.tsx", "src/app/routes/home.tsx"];
const admin: FirstScreen = {
  routes: [...shell, "src/app/routes/home-admin.tsx"],
  // the admin dashboard's first calls (home-admin.tsx): the state, the attention strip's counts
  // (under 100 bytes), charging sessions, recent activity and the weekly activity's summary (a
  // few KB; a driver's card asks for its activities when opened)
  api: [
    url(stateQueryOptions),
    url(adminAttentionQueryOptions),
    url(adminChargingSessionsQueryOptions),
    url(adminRecentActivityQueryOptions),
    url(adminWeeklyActivityQueryOptions(0)),
  ],
};

/** GUEST_ROUTES are the modules of the sign-in screen a guest sees at /. */
export const GUEST_ROUTES = ["src/features/auth/components/auth-page.tsx"];

/** FIRST_SCREENS lists, per approved role, the route modules and API calls of its first screen at /. */
export const FIRST_SCREENS: Record<string, FirstScreen> = {
  admin,
  master_admin: admin,
  driver: { routes: [...shell, "src/app/routes/home-driver.tsx"], api: [url(stateQueryOptions)] },
  corporate_liason: { routes: [...shell, "src/app/routes/liaison.tsx"], api: [url(stateQueryOptions)] },
};
