import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";

/** UNAUTHORIZED_REDIRECT_MS is the pause between the 'Unauthorized' toast and the redirect. */
export const UNAUTHORIZED_REDIRECT_MS = 500;

let pending: ReturnType<typeof setTimeout> | undefined;

/**
 * handleUnauthorized shows 'Unauthorized' / 'You are logged out. Logging in again...' and
 * sends the browser to /auth after 500 ms (spec part 1 §8). Repeated calls while a redirect
 * is pending do nothing. go defaults to a full page load so every cached query is dropped.
 */
export function handleUnauthorized(go: (path: string) => void = (p) => window.location.assign(p)): void {
  if (pending) return;
  toast({ title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" });
  pending = setTimeout(() => {
    pending = undefined;
    go(paths.auth.path);
  }, UNAUTHORIZED_REDIRECT_MS);
}
