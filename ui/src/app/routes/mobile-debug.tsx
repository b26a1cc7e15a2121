import { MobileDebugPage } from "@/features/debug/components/mobile-debug-page";

/** MobileDebugRoute is /mobile-debug (open without signing in, so a broken sign-in can be diagnosed). */
export function MobileDebugRoute() {
  return <MobileDebugPage />;
}
