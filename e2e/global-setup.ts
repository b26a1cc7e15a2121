// Runs after the webServer (scripts/serve.mjs) has prepared the data dir and started the
// binary: fails fast, with a clear message, when the superuser or the admin is missing.
import PocketBase from "pocketbase";
import { ADMIN, BASE_URL, SUPERUSER } from "./env";

export default async function globalSetup() {
  const pb = new PocketBase(BASE_URL);
  await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
  const admin = await pb.collection("users").getFirstListItem(pb.filter("email = {:email}", { email: ADMIN.email }));
  if (admin.role !== "admin" || admin.isApproved !== "approved") {
    throw new Error(`e2e admin is ${admin.role}/${admin.isApproved}, want admin/approved`);
  }
}
