// The route modules of each visitor's first screen at /: the half of app/first-screen.ts's
// list that the entry needs, without the features' query definitions (which would pull them
// into the sign-in screen's first load). The build's boot script preloads these chunks
// (through FIRST_SCREENS) and the router preloads the same modules at run time
// (app/router.tsx preloadRoute). Keep it free of imports and browser globals.

const shell = ["src/app/routes/signed-in.tsx", "src/app/routes/home.tsx"];
const admin = [...shell, "src/app/routes/home-admin.tsx"];

/** GUEST_ROUTES are the modules of the sign-in screen a guest sees at /. */
export const GUEST_ROUTES = ["src/features/auth/components/auth-page.tsx"];

/** FIRST_SCREEN_ROUTES lists, per approved role, the route modules of its first screen at /. */
export const FIRST_SCREEN_ROUTES: Record<string, string[]> = {
  admin,
  master_admin: admin,
  driver: [...shell, "src/app/routes/home-driver.tsx"],
  corporate_liason: [...shell, "src/app/routes/liaison.tsx"],
};

/** firstScreenRoutes are the route modules of user's first screen at / ([] for a guest, or an account that cannot open it yet). */
export function firstScreenRoutes(user: { role: string; isApproved: string; mustResignTerms?: boolean } | null | undefined): string[] {
  if (!user || user.isApproved !== "approved" || user.mustResignTerms) return [];
  return FIRST_SCREEN_ROUTES[user.role] ?? [];
}
