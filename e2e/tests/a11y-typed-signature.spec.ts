// Sign without drawing (issue 28, WCAG 2.2 SC 2.5.7): a registration made with the keyboard
// only, signed with the "Type your name" tab; the agreement records the typed name and
// signatureMethod "typed", and its PDF (read back with pdftotext) says so. (axe on these
// screens runs in the table of screens.spec.ts.)
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expectFocusVisible, tabTo } from "../a11y";
import { ADMIN } from "../env";
import { expect, findUser, signIn, test, toast } from "../fixtures";

// axe and step-by-step focus checks are slow on a loaded 2-core machine: they wait on conditions, never on time
test.describe.configure({ timeout: 240_000 });

test("a guest registers with the keyboard only and signs by typing their name", async ({ page, pb, shot, unique }, testInfo) => {
  const person = { email: unique("typed"), password: "typed-secret-1", firstName: "Tove", lastName: `Typist-${testInfo.project.name}` };
  const typedName = `${person.firstName} ${person.lastName}`;
  await page.goto("/auth");
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();

  await test.step("the Register tab, with the keyboard", async () => {
    await tabTo(page, page.getByRole("tab", { name: "Sign In" }));
    await page.keyboard.press("ArrowRight"); // Radix tabs: arrows move and select
    await expect(page.getByRole("tab", { name: "Register" })).toHaveAttribute("aria-selected", "true");
    await tabTo(page, page.getByLabel("First Name"));
    await page.keyboard.type(person.firstName);
    await tabTo(page, page.getByLabel("Last Name"));
    await page.keyboard.type(person.lastName);
    await tabTo(page, page.getByLabel("Email"));
    await page.keyboard.type(person.email);
    await tabTo(page, page.getByLabel("Password", { exact: true }));
    await page.keyboard.type(person.password);
    await tabTo(page, page.getByRole("button", { name: "Continue to Terms" }));
    await page.keyboard.press("Enter");
  });

  const dialog = page.getByRole("dialog");
  const accept = dialog.getByRole("button", { name: "Accept Terms & Sign" });
  await test.step("tick, choose Type your name, type, accept", async () => {
    await expect(dialog.getByText(/^Version .+ · Effective /)).toBeVisible();
    await tabTo(page, dialog.getByRole("checkbox", { name: "I have read and understood the Terms and Conditions above" }));
    await page.keyboard.press("Space");
    await tabTo(page, dialog.getByRole("checkbox", { name: "I agree to be bound by these Terms and Conditions" }));
    await page.keyboard.press("Space");
    await tabTo(page, dialog.getByRole("tab", { name: "Draw" }));
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByRole("tab", { name: "Type your name" })).toHaveAttribute("aria-selected", "true");
    await expect(accept).toBeDisabled(); // no name typed yet
    await tabTo(page, dialog.getByLabel("Type your full name"));
    await page.keyboard.type(typedName);
    await expect(dialog.getByRole("img", { name: `Your typed signature: ${typedName}` })).toBeVisible();
    await shot("terms-modal-typed");
    await tabTo(page, accept);
    await expectFocusVisible(page);
    await page.keyboard.press("Enter");
    await expect(toast(page).getByText("Registration successful! Your account is pending admin approval.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Account Pending Approval" })).toBeVisible();
  });

  await test.step("the agreement and its PDF say it was signed by typing", async () => {
    const user = await findUser(pb, person.email);
    const [agreement] = await pb.collection("agreements").getFullList({ filter: pb.filter("user = {:id}", { id: user!.id }) });
    expect(agreement).toMatchObject({ signatureMethod: "typed", signatureText: typedName });
    await expect.poll(async () => (await pb.collection("agreements").getOne(agreement!.id)).pdfStatus).toBe("available");
    const fresh = await pb.collection("agreements").getOne(agreement!.id);
    const token = await pb.files.getToken();
    const res = await page.request.get(pb.files.getURL(fresh, fresh.pdf, { token }));
    expect(res.status()).toBe(200);
    const file = path.join(os.tmpdir(), `typed-${testInfo.project.name}-${Date.now()}.pdf`);
    writeFileSync(file, await res.body());
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(text).toContain(`Signed by typing: ${typedName}`);
  });

  await test.step("the admin's agreements table says it was typed", async () => {
    await page.context().clearCookies();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/admin-system#signed-agreements");
    const agreements = page.getByRole("region", { name: "Signed Agreements" });
    await agreements.getByRole("searchbox", { name: "Search agreements by name or email" }).fill(person.email);
    await expect(agreements.getByText(/^1 signed agreement|^Showing 1 of/)).toBeVisible();
    // a table cell at 1280 px, the card's line on a phone
    await expect(agreements.getByText(/^Typed$|· Typed signature$/).filter({ visible: true })).toHaveCount(1);
    await expect(agreements.getByText(/^Drawn$|· Drawn signature$/).filter({ visible: true })).toHaveCount(0);
  });
});
