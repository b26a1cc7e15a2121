/**
 * AUTH_USER_URL is the current-user call; its URL is also its query key (lib/auth.ts
 * userQueryOptions). Its own module so that the build reads it without the query client
 * (src/app/first-screen.ts).
 */
export const AUTH_USER_URL = "/api/auth/user";
