// A queued photo whose claim was recorded but whose answer was lost (DESIGN.md §12, §5): the
// outbox sends it again under the same key, and the server's keyed answer must match, so the
// resend claims the same upload (a new upload URL would be another body: 409
// idempotency_key_reused, and the photo would sit refused).
import { newDriver } from "../field";
import { expect, test } from "../fixtures";

test.describe.configure({ timeout: 120_000 });

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

test("a photo whose claim's answer was lost is sent again once, as the same photo, not refused", async ({ page, pb, unique }) => {
  const driver = await newDriver(page, pb, unique("photo-lost"), { firstName: "Pia", lastName: "Lost" });
  // the first claim reaches the server (recorded), then its answer is dropped: the phone never hears it
  let claims = 0;
  await page.route("**/api/photos/upload", async (route) => {
    claims++;
    if (claims === 1) {
      await route.fetch();
      await route.abort("failed");
      return;
    }
    await route.continue();
  });
  const upload = page.getByRole("region", { name: "Send Photos" });
  await upload.getByLabel("Photos").setInputFiles({ name: "answer-lost.png", mimeType: "image/png", buffer: PNG });
  await upload.getByRole("button", { name: "Upload Photos" }).click();
  await expect(page.getByTestId("outbox-status")).toHaveText("All sent", { timeout: 60_000 });
  expect(claims).toBeGreaterThanOrEqual(2);
  const photos = await pb.collection("photos").getFullList({ filter: pb.filter("uploadedBy = {:id} && claimed = true", { id: driver.id }) });
  expect(photos.map((p) => p.filename as string)).toEqual(["answer-lost.png"]);
});
