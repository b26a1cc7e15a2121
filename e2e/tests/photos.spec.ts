// Photos (spec part 2 §2, DESIGN.md §9): a driver takes two photos with a fake camera and
// uploads them with notes; an admin sees them grouped under the driver, opens one and
// mass-deletes them; the liaison views and deletes one.
import { axeViolations } from "../a11y";
import { CHROMIUM } from "../browsers";
import { BASE_URL } from "../env";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

test.use({
  launchOptions: { ...CHROMIUM, args: [...CHROMIUM.args, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"] },
  permissions: ["camera"],
});

test("driver photographs, admin reviews and mass-deletes, liaison deletes", async ({ browser, page, pb, shot, unique }) => {
  test.slow(); // 20–34 s on a quiet machine: a third or more of the 60 s default, which a loaded 2-core CI machine passes
  const driver = { email: unique("photo-driver"), password: "driver-secret-1", firstName: "Pho", lastName: "Tographer" };
  const admin = { email: unique("photo-admin"), password: "admin-secret-1", firstName: "Ada", lastName: "Min" };
  const liaison = { email: unique("photo-liaison"), password: "liaison-secret-1", firstName: "Lia", lastName: "Son" };
  await seedUser(pb, driver);
  await seedUser(pb, { ...admin, role: "admin" });
  await seedUser(pb, { ...liaison, role: "corporate_liason" });

  // the driver takes two photos and sends them with notes
  await signIn(page, driver.email, driver.password);
  await page.goto("/");
  const camera = page.getByRole("region", { name: "Camera Capture" });
  await camera.getByRole("button", { name: "Start Camera" }).click();
  await camera.getByRole("button", { name: "Take Photo" }).click();
  await expect(camera.getByRole("list", { name: "Files to upload" }).getByRole("listitem")).toHaveCount(1);
  await camera.getByRole("button", { name: "Take Photo" }).click();
  await expect(camera.getByRole("list", { name: "Files to upload" }).getByRole("listitem")).toHaveCount(2);
  await expect(camera.getByText(/^photo-\d{4}-.*\.jpg$/).first()).toBeVisible();
  // the camera running, its preview and queue shown: WCAG 2.2 AA as every screen (issue 28)
  await expect(camera.getByLabel("Camera preview")).toBeVisible();
  expect.soft(await axeViolations(page), "axe with the camera running").toEqual([]);
  await camera.getByLabel("Notes").fill("Cracked deck near the harbour");
  await camera.getByRole("button", { name: /Upload 2 Photo/ }).click();
  await expect(camera.getByText("Uploaded")).toHaveCount(2);
  await shot("photos-driver");
  const mine = await page.request.get("/api/photos");
  expect((await mine.json()).length).toBe(2);

  // an admin sees them grouped under the driver, opens one, mass-deletes them
  const adminCtx = await browser.newContext({ baseURL: BASE_URL });
  const adminPage = await adminCtx.newPage();
  await signIn(adminPage, admin.email, admin.password);
  await adminPage.goto("/admin-photos");
  const group = adminPage.getByRole("region", { name: "Photos from Pho Tographer" });
  await expect(group.getByRole("listitem")).toHaveCount(2);
  await expect(group.getByText("Cracked deck near the harbour").first()).toBeVisible();
  await group.getByRole("button", { name: /^photo-/ }).first().click();
  const dialog = adminPage.getByRole("dialog");
  await expect(dialog.getByRole("img")).toBeVisible();
  await expect(dialog.getByText("Cracked deck near the harbour")).toBeVisible();
  const firstTitle = await dialog.getByRole("heading").textContent();
  await adminPage.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("heading")).not.toHaveText(firstTitle ?? "");
  await shot("photos-admin-large", adminPage);
  await adminPage.keyboard.press("Escape");
  await shot("photos-admin", adminPage);
  // Select all takes every photo on the page: the earlier specs on this server (the field
  // app's queue, the dialogs' axe run) leave theirs, so the count is read, not assumed
  const total = Number((await adminPage.getByText(/^\d+ photo\(s\)$/).first().textContent())?.match(/^\d+/)?.[0]);
  expect(total).toBeGreaterThanOrEqual(2);
  await adminPage.getByLabel("Select all photos").click();
  await adminPage.getByRole("button", { name: `Delete ${total}` }).click();
  await adminPage.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(adminPage).filter({ hasText: `Successfully deleted ${total} photos` })).toBeVisible();
  await expect(adminPage.getByText("No photos uploaded yet. Photos from drivers will appear here.")).toBeVisible();

  // the driver sends one more from the file picker; the liaison views and deletes it
  await page.getByRole("region", { name: "Send Photos" }).getByLabel("Photos").setInputFiles({
    name: "wheel.png",
    mimeType: "image/png",
    buffer: Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
      "base64",
    ),
  });
  await page.getByRole("region", { name: "Send Photos" }).getByRole("button", { name: "Upload Photos" }).click();
  await expect(page.getByRole("region", { name: "Send Photos" }).getByText("Uploaded")).toBeVisible();

  const liaisonCtx = await browser.newContext({ baseURL: BASE_URL });
  const liaisonPage = await liaisonCtx.newPage();
  await signIn(liaisonPage, liaison.email, liaison.password);
  await liaisonPage.goto("/liaison");
  await liaisonPage.getByRole("tab", { name: "Photos" }).click();
  await expect(liaisonPage.getByText("1 photo(s)").first()).toBeVisible();
  await shot("photos-liaison", liaisonPage);
  await liaisonPage.getByRole("button", { name: "Delete wheel.png" }).click();
  await liaisonPage.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(liaisonPage).filter({ hasText: "Photo has been completely removed from all systems" })).toBeVisible();
  await expect(liaisonPage.getByText("No photos uploaded yet. Photos from drivers will appear here.")).toBeVisible();
  await adminCtx.close();
  await liaisonCtx.close();
});
