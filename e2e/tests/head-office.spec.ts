// Head office's tokens on the System page (issue 45 item 4, DESIGN.md §15): a master admin
// issues a token, sees it once and copies it; head office reads the city's packs with it and is
// refused anything else; the master admin revokes it and the next request is refused; the audit
// list says what head office did. Issuing, hiding the token and revoking are done from the keyboard,
// and focus is never dropped when what had it goes away. The card is checked with axe and photographed at the phone
// widths and the desktop's (one run: the behaviour does not depend on the width).
import path from "node:path";
import { expectFocusVisible, expectNoAxeViolations, tabTo } from "../a11y";
import { SCREENSHOTS } from "../env";
import { expect, seedUser, signIn, test, toast } from "../fixtures";

test("a master admin issues a head-office token, head office uses it, the master admin revokes it", async ({ page, pb, unique, shot, playwright }) => {
  // axe on the whole System page at three widths: 11 s alone on the quiet 2-core machine, 38 s
  // (FC48) and over 60 s (FC50) beside `make test`'s other stages there
  test.setTimeout(120_000);
  const master = unique("hq-master");
  await seedUser(pb, { email: master, password: "master-secret-1", firstName: "Hedda", lastName: "Office", role: "master_admin" });
  await signIn(page, master, "master-secret-1");
  await page.goto("/admin-system");
  const card = page.getByRole("region", { name: "Head office" });
  await expect(card.getByRole("button", { name: "Issue token" })).toBeVisible();

  // a name is required (the server's wording), nothing issued
  await card.getByRole("button", { name: "Issue token" }).click();
  await expect(card.getByRole("alert")).toHaveText("Name the token (who or what will use it)");

  // issued from the keyboard: type the name, Enter; the token is shown once, focused and selected
  const name = `Head office ${test.info().project.name} ${Date.now().toString(36)}`;
  const nameField = card.getByLabel("Token name");
  await nameField.focus();
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  const shown = card.getByRole("textbox", { name: "Head-office token" });
  await expect(shown).toHaveValue(/^swbhq_[A-Za-z0-9_-]{43}$/);
  await expect(shown).toBeFocused();
  await expectFocusVisible(page);
  const token = await shown.inputValue();
  const item = card.getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText(`…${token.slice(-4)}`);
  await expect(item).toContainText("Active");
  for (const width of [360, 390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await expectNoAxeViolations(page, `System page, head office card with a new token at ${width}px`);
    if (width === 390) await shot(`admin-system-head-office-${width}`); // the whole page once; the card at each width
    await card.screenshot({ path: path.join(SCREENSHOTS, `${test.info().project.name}-head-office-card-${width}.png`) });
  }
  await tabTo(page, card.getByRole("button", { name: "Copy" }));
  await tabTo(page, card.getByRole("button", { name: "Done" }));
  await page.keyboard.press("Enter");
  await expect(shown).toHaveCount(0);
  await expect(nameField).toBeFocused(); // not dropped at the top of the page
  await expect(page.getByText(token)).toHaveCount(0);

  // head office, from its own server: packs and recalls read; anything else refused
  const hq = await playwright.request.newContext({ baseURL: page.url().replace(/\/admin-system.*$/, ""), extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  expect((await hq.get("/api/packs")).status()).toBe(200);
  expect((await hq.get("/api/admin/packs/recalls")).status()).toBe(200);
  const mint = await hq.post("/api/admin/packs/mint", { data: { count: 1 }, headers: { "Idempotency-Key": crypto.randomUUID() } });
  expect(mint.status()).toBe(403);
  expect((await mint.json()).message).toBe("A head-office token may only read packs and recalls and start a recall.");
  expect((await hq.get("/api/admin/users")).status()).toBe(403);

  // the audit list says what head office read
  await page.reload();
  const audit = page.getByRole("list", { name: "Audit list" });
  await expect(audit.getByRole("listitem").filter({ hasText: `Head office: ${name} (head-office token)` }).first()).toBeVisible();

  // revoked from the keyboard, refused from the next request on: Tab to its Revoke, Enter, Tab to the dialog's Revoke, Enter; focus back on the name field
  await nameField.focus();
  await tabTo(page, card.getByRole("button", { name: `Revoke ${name}` }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(name);
  await tabTo(page, dialog.getByRole("button", { name: "Revoke" }));
  await page.keyboard.press("Enter");
  await expect(toast(page).getByText("Token revoked. Head office can no longer use it.")).toBeVisible();
  await expect(item).toContainText("Revoked");
  await expect(nameField).toBeFocused();
  const after = await hq.get("/api/packs");
  expect(after.status()).toBe(401);
  expect((await after.json()).message).toBe("This head-office token is not valid or was revoked.");
  await hq.dispose();
});
