// Forced re-sign of the terms (spec part 2 §2): an admin forces a re-sign on a driver; the
// driver signs in, gets the 'Updated Terms and Conditions' panel instead of the app (the API
// refuses them meanwhile), signs the terms again in the Terms modal and lands on their home.
import { ADMIN } from "../env";
import { drawSignature } from "../draw";
import { expect, findUser, seedUser, signIn, test, toast } from "../fixtures";

test("a driver forced to re-sign signs the terms again and gets the app back", async ({ page, pb, request, shot, unique }) => {
  const email = unique("resign-driver");
  const driver = await seedUser(pb, { email, password: "driver-secret-1", firstName: "Rhea", lastName: "Resign" });

  await test.step("an admin forces the re-sign", async () => {
    const login = await request.post("/api/login", { data: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.status(), await login.text()).toBe(200);
    const res = await request.post(`/api/admin/force-terms-resigning/${driver.id}`);
    expect(res.status(), await res.text()).toBe(200);
    expect((await findUser(pb, email))?.mustResignTerms).toBe(true);
  });

  await test.step("the driver sees the re-sign panel and the API refuses them", async () => {
    await signIn(page, email, "driver-secret-1");
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Updated Terms and Conditions" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Driver Home" })).toHaveCount(0);
    const state = await page.request.get("/api/state");
    expect(state.status()).toBe(403);
    expect(await state.json()).toMatchObject({ message: "Terms re-signing required" });
    await shot("terms-resign-panel");
  });

  await test.step("the driver signs the terms again", async () => {
    await page.getByRole("button", { name: "Review and Sign Terms" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("checkbox", { name: "I have read and understood the Terms and Conditions above" }).check();
    await dialog.getByRole("checkbox", { name: "I agree to be bound by these Terms and Conditions" }).check();
    await drawSignature(page, dialog.getByRole("img", { name: "Digital Signature" }));
    await dialog.getByRole("button", { name: "Accept Terms & Sign" }).click();
    await expect(toast(page).getByText("Terms accepted")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Driver Home" })).toBeVisible();
    await shot("terms-resign-done");
  });

  await test.step("the new signature is recorded and the flag cleared", async () => {
    expect((await findUser(pb, email))?.mustResignTerms).toBe(false);
    const agreements = await pb.collection("agreements").getFullList({ filter: pb.filter("user = {:id}", { id: driver.id }) });
    expect(agreements).toHaveLength(1);
    expect((await page.request.get("/api/state")).status()).toBe(200);
  });
});
