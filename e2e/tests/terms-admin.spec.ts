// The terms editor and the signed agreements (spec part 2 §2, /admin-system blocks 6 and 7;
// DESIGN.md §7): an admin creates a version from the 2025 template, edits, previews and
// activates it; a new user registers and signs it; the admin finds the agreement by search and
// opens its PDF; a signed version can no longer be edited.
import { ADMIN } from "../env";
import { drawSignature } from "../draw";
import { expect, findUser, signIn, test, toast } from "../fixtures";

test("an admin publishes a terms version, a new user signs it, the admin opens the agreement's PDF", async ({ page, browser, pb, shot, unique }, testInfo) => {
  // five steps across two browsers (editor, registration with a signature, search, PDF): in
  // the full CI run at load 12 every step passed and the whole took 64 s
  test.slow();
  const tag = `${testInfo.project.name}-${Date.now().toString(36)}`;
  const version = `e2e-${tag}`;
  const title = `Contractor Agreement ${tag}`;
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin-system");
  const editor = page.getByRole("region", { name: "Terms & Conditions Editor" });
  await expect(editor).toBeVisible();
  const create = editor.getByRole("form", { name: "Create New Version" });

  await test.step("create: the form says what is missing, the template fills it in", async () => {
    await create.getByLabel("Version").fill("");
    await create.getByLabel("Title").fill("");
    await create.getByRole("button", { name: "Create Version" }).click();
    await expect(create.getByText("Version is required")).toBeVisible();
    await expect(create.getByText("Title is required")).toBeVisible();
    await expect(create.getByText("Content is required")).toBeVisible();
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    });
    await expect(create.getByLabel("Effective Date")).toHaveValue(today);

    await editor.getByRole("button", { name: "Load New 2025 Template" }).click();
    await expect(create.getByLabel("Title")).not.toHaveValue("");
    await expect(create.getByRole("textbox", { name: "Content" })).toContainText(/contractor/i);
    await create.getByLabel("Version").fill(version);
    await create.getByLabel("Title").fill(title);
    // the toolbar works on the content: a bold word at the end
    const content = create.getByRole("textbox", { name: "Content" });
    await content.click();
    await page.keyboard.press("ControlOrMeta+End");
    await create.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(" Signed in SwapBay.");
    await shot("terms-editor-create");
    await create.getByRole("button", { name: "Create Version" }).click();
    await expect(toast(page).getByText("Terms version created")).toBeVisible();
    await expect(create.getByLabel("Version")).toHaveValue("");
  });

  const card = editor.getByRole("article", { name: `Version ${version}` });
  await test.step("a second version with the same name is refused with the server's message", async () => {
    await editor.getByRole("button", { name: "Load New 2025 Template" }).click();
    await expect(create.getByLabel("Title")).not.toHaveValue("");
    await create.getByLabel("Version").fill(version);
    await create.getByRole("button", { name: "Create Version" }).click();
    await expect(create.getByRole("alert")).toContainText("A terms version with this name already exists");
    await shot("terms-editor-refused");
    await create.getByLabel("Version").fill("");
  });

  await test.step("edit in place: save changes the title, cancel changes nothing", async () => {
    await expect(card).toBeVisible();
    await card.getByRole("button", { name: "Edit" }).click();
    const form = card.getByRole("form", { name: `Edit version ${version}` });
    await form.getByLabel("Title").fill(`${title} (edited)`);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(toast(page).getByText("Terms version updated")).toBeVisible();
    await expect(card.getByText(`${title} (edited)`)).toBeVisible();
    await card.getByRole("button", { name: "Edit" }).click();
    await form.getByLabel("Title").fill("Thrown away");
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(card.getByText(`${title} (edited)`)).toBeVisible();
  });

  await test.step("preview shows the version as drivers will read it", async () => {
    await card.getByRole("button", { name: "Preview" }).click();
    const dialog = page.getByRole("dialog", { name: `${title} (edited)` });
    await expect(dialog.getByText(`Version ${version}`)).toBeVisible();
    await expect(dialog.locator("strong", { hasText: "Signed in SwapBay." })).toBeVisible();
    await shot("terms-editor-preview");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
  });

  await test.step("activate: the version becomes the one drivers sign", async () => {
    await card.getByRole("button", { name: "Activate" }).click();
    await expect(toast(page).getByText("Terms version activated")).toBeVisible();
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: "Activate" })).toHaveCount(0);
    await expect(editor.getByText("Active", { exact: true })).toHaveCount(1);
    const active = await (await page.request.get("/api/terms-content/active")).json();
    expect(active).toMatchObject({ version, title: `${title} (edited)` });
  });

  const email = unique("signer");
  await test.step("a new user registers and signs the new version", async () => {
    const guest = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
    const p = await guest.newPage();
    await p.goto("/auth");
    await p.getByRole("tab", { name: "Register" }).click();
    await p.getByLabel("First Name").fill("Zoë");
    await p.getByLabel("Last Name").fill(`Nguyễn-${tag}`);
    await p.getByLabel("Email").fill(email);
    await p.getByLabel("Password").fill("signer-secret-1");
    await p.getByRole("button", { name: "Continue to Terms" }).click();
    const dialog = p.getByRole("dialog");
    await expect(dialog.getByText(`Version ${version} · Effective`, { exact: false })).toBeVisible();
    await dialog.getByRole("checkbox", { name: "I have read and understood the Terms and Conditions above" }).check();
    await dialog.getByRole("checkbox", { name: "I agree to be bound by these Terms and Conditions" }).check();
    await drawSignature(p, dialog.getByRole("img", { name: "Digital Signature" }));
    await dialog.getByRole("button", { name: "Accept Terms & Sign" }).click();
    await expect(toast(p).getByText("Registration successful! Your account is pending admin approval.")).toBeVisible();
    // the signer gets their copy while pending: the link appears once the PDF is made
    await expect(p.getByRole("heading", { name: "Account Pending Approval" })).toBeVisible();
    const copy = p.getByRole("link", { name: "Download your signed agreement" });
    await expect(copy).toBeVisible({ timeout: 20_000 });
    await expect(p.getByText(`version ${version}`, { exact: false })).toBeVisible();
    const pdf = await p.request.get((await copy.getAttribute("href"))!);
    expect(`${pdf.status()} ${pdf.headers()["content-type"]} ${(await pdf.body()).subarray(0, 5).toString()}`).toBe("200 application/pdf %PDF-");
    await guest.close();
    expect((await findUser(pb, email))?.firstName).toBe("Zoë");
  });

  await test.step("the admin finds the agreement by search; its PDF becomes available and opens", async () => {
    const table = page.getByRole("region", { name: "Signed Agreements" });
    const search = table.getByRole("searchbox", { name: "Search agreements by name or email" });
    await search.fill("no-such-signer-anywhere");
    await expect(table.getByText("No agreements match your search")).toBeVisible();
    await expect(table.getByText('matching "no-such-signer-anywhere"')).toBeVisible();
    await search.fill(`nguyễn-${tag}`);
    const view = table.getByRole("button", { name: `View PDF of Zoë Nguyễn-${tag}` }).locator("visible=true");
    // the PDF is made after the signing commits; its TERMS_UPDATED event refreshes the table
    await expect(view).toBeVisible({ timeout: 20_000 });
    await expect(table.getByText("Available").locator("visible=true")).toBeVisible();
    await expect(table.getByText(`Showing 1 of`)).toBeVisible();
    await shot("terms-agreements");

    let served = "";
    await page.context().route("**/api/agreements/*/pdf", async (route) => {
      const res = await route.fetch();
      const body = await res.body();
      served = `${res.status()} ${res.headers()["content-type"]} ${body.subarray(0, 5).toString()}`;
      // the browser's PDF viewer is not what is tested: show a page instead of a download
      await route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Agreement PDF</h1>" });
    });
    const mobile = testInfo.project.name === "phone";
    if (mobile) {
      await view.click(); // on a phone the PDF opens in the same tab
      await expect(page).toHaveURL(/\/api\/agreements\/[a-z0-9]+\/pdf$/);
    } else {
      const [tab] = await Promise.all([page.waitForEvent("popup"), view.click()]); // a new tab on a desktop
      await expect(tab).toHaveURL(/\/api\/agreements\/[a-z0-9]+\/pdf$/);
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
      // the admin's own tab stays on the agreements (the same-tab fallback is for a blocked pop-up)
      await expect(page).toHaveURL(/\/admin-system$/);
      await expect(view).toBeVisible();
    }
    expect(served).toBe("200 application/pdf %PDF-");
    await page.context().unroute("**/api/agreements/*/pdf");
  });

  await test.step("a signed version can no longer be edited", async () => {
    await page.goto("/admin-system");
    await expect(card.getByRole("button", { name: "Edit" })).toBeDisabled();
    await expect(card.getByText("Signed versions cannot be edited: create a new version instead.")).toBeVisible();
    await expect(card.getByText("1 signature")).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await shot("terms-editor-signed");
  });
});
