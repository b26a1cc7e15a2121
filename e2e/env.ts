// Shared settings of the e2e run. playwright.config.ts fills SWAPBAY_E2E_DIR once in the
// runner process (workers inherit it), so every test talks to the same fresh server.
import path from "node:path";

/** PORT is where the binary under test listens. */
export const PORT = Number(process.env.PORT ?? 8131);
/** BASE_URL is the server's origin. */
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** BINARY is the built swapbay binary (make build). */
export const BINARY = path.resolve(import.meta.dirname, "../bin/swapbay");
/** SCREENSHOTS is where every screen is captured at both widths (gitignored). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, "../screenshots");

/** SUPERUSER is the PocketBase superuser the fixtures read and seed records with (/_/ access). */
export const SUPERUSER = { email: "e2e-superuser@example.com", password: "superuser-secret-123" };

/** ADMIN is the approved admin created with `swapbay user create` before the server starts. */
export const ADMIN = {
  email: "e2e-admin@example.com",
  password: "admin-secret-123",
  firstName: "Ada",
  lastName: "Admin",
};
