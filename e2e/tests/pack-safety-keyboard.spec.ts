// The pack safety dialogs (DESIGN.md §14, issue 37) walked with the keyboard only: after
// sign-in (through the API) and page.goto, only Tab, Shift+Tab, Enter, Space, the arrows, Escape
// and typing. For each dialog: focus moves into it on open; every control is reached in order
// with an accessible name and a visible focus indicator, and the focus trap wraps; Escape
// closes it and the focus is back on the control that opened it; the action completes by
// keyboard and its result is on screen; axe finds nothing with it open.
// - desktop: the admin's recall dialog (by manufacturer, chosen from the Radix list), the recall
//   page it opens and, from it, a recalled pack's page where the admin retires the pack;
// - phone: the driver's "Report a damaged pack" (a held pack chosen, a note, a photo from the
//   file field and one from "Take a photo", one removed again), then the admin's decisions on
//   the quarantined pack (maintenance, then back in service).
// Own packs (a unique lot and manufacturer) and users; pack tracking is on for the phone test
// only and off again after it.
import type { APIRequestContext, FileChooser, Page } from "@playwright/test";
import { expectFocusVisible, expectNoAxeViolations, tabTo } from "../a11y";
import { ADMIN } from "../env";
import { apiAs, expect, keyed, seedUser, setPackTracking, signIn, test, toast } from "../fixtures";
import { chooseOption, expectFocusIn, expectOpensAndEscapes, expectTabOrder, press, settled } from "../keyboard";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

// keyboard walks check the focus at every stop: on a loaded 2-core machine they wait on
// conditions, never on time (each test takes well under a minute on a quiet one)
test.describe.configure({ timeout: 120_000 });

/** mint makes count packs as the signed-in admin of api and returns their serials. */
async function mint(api: APIRequestContext, count: number, fields: Record<string, string | number>): Promise<string[]> {
  const res = (await keyed(api, "/api/admin/packs/mint", { count, model: "Nova 48V 15Ah", chemistry: "NMC", nominalWh: 720, manufactured: "2026-03", ...fields })) as {
    packs: { serial: string }[];
  };
  return res.packs.map((p) => p.serial);
}

/** packState reads a pack's state as the signed-in user of api. */
async function packState(api: APIRequestContext, serial: string): Promise<string> {
  const res = await api.get(`/api/packs/${serial}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { state: string }).state;
}

/**
 * fileChoosers answers the page's file choosers in order. Its listener stays on from the start:
 * Playwright turns the browser's file-chooser interception on when a listener is added, by an
 * asynchronous call (Page.setInterceptFileChooserDialog), so a waitForEvent made just before the
 * key could lose the race to the key — the browser then opened its own chooser, no event came
 * and the test waited out its time (puppeteer#6040; here under load, twice in a row on the
 * Take a photo button).
 */
function fileChoosers(page: Page) {
  const waiting: ((chooser: FileChooser) => void)[] = [];
  page.on("filechooser", (chooser) => waiting.shift()?.(chooser));
  return {
    /** choose presses key on the focused control and answers the file chooser it opens with file. */
    async choose(key: string, file: { name: string }) {
      const chooser = new Promise<FileChooser>((resolve) => waiting.push(resolve));
      await page.keyboard.press(key);
      await (await chooser).setFiles({ name: file.name, mimeType: "image/png", buffer: PNG });
    },
  };
}

/**
 * decide walks one decision on a pack's page by keyboard: from the focused decision button
 * Enter opens its dialog (focus in the Reason), the reason is typed, Tab reaches the dialog's
 * button and Enter saves; the dialog closes with the toast.
 */
async function decide(page: Page, label: string, serial: string, reason: string) {
  await expect(page.getByRole("button", { name: label, exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `${label}: ${serial}` });
  await expectFocusIn(dialog);
  await expect(dialog.getByLabel("Reason")).toBeFocused();
  await page.keyboard.type(reason);
  await expectTabOrder(page, [dialog.getByRole("button", { name: "Cancel" }), dialog.getByRole("button", { name: label, exact: true })]);
  await page.keyboard.press("Enter");
  await expect(toast(page).getByText("Pack state changed")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // the decision's button may be gone with the state it belonged to: focus stays on the page, visibly
  await expectFocusVisible(page);
}

// the admin's recall runs at desktop width (the phone runs the driver's damage report)
test("admin: recalls packs by manufacturer with the keyboard, reads the recall page and retires a recalled pack", { tag: "@desktop" }, async ({ page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const maker = `Keycell ${stamp}`;
  await signIn(page, ADMIN.email, ADMIN.password);
  const serials = (await mint(page.request, 3, { manufacturer: maker, lot: `E2E-KEYS-${stamp}` })).sort();
  const reason = "Supplier notice: keyboard cells may overheat";

  await page.goto("/packs");
  await expect(page.getByRole("heading", { level: 1, name: "Packs" })).toBeVisible({ timeout: 30_000 });
  const opener = page.getByRole("button", { name: "Recall packs" });
  const dialog = page.getByRole("dialog", { name: "Recall packs" });
  const by = dialog.getByRole("combobox", { name: "Recall by" });

  await test.step("Enter opens the recall dialog with the focus in it; Escape closes it back onto its button", async () => {
    await tabTo(page, opener);
    await expectOpensAndEscapes(page, opener, dialog, by);
  });

  await test.step("the dialog's controls in order: recall by (a list chosen with the arrows), the value, the reason, Cancel, Recall, Close; the trap wraps", async () => {
    await page.keyboard.press("Enter");
    await expectFocusIn(dialog);
    await expect(by).toBeFocused();
    await page.keyboard.press("Enter");
    await chooseOption(page, "Manufacturer");
    await expect(by).toBeFocused();
    await expectFocusVisible(page);
    await expect(by).toHaveText("Manufacturer");
    await expect(dialog.getByRole("status")).toHaveText("Choose a manufacturer to see the packs it matches.");
    await expectTabOrder(page, [
      dialog.getByRole("combobox", { name: "Manufacturer" }),
      dialog.getByRole("textbox", { name: "Reason" }),
      dialog.getByRole("button", { name: "Cancel" }),
      dialog.getByRole("button", { name: "Recall", exact: true }),
      dialog.getByRole("button", { name: "Close" }),
      by,
    ]);
    // and back the other way
    await expectTabOrder(page, [dialog.getByRole("button", { name: "Close" })], { back: true });
  });

  await test.step("type the manufacturer and the reason: the preview counts the packs; axe is clean with it open", async () => {
    await tabTo(page, dialog.getByRole("combobox", { name: "Manufacturer" }));
    await page.keyboard.type(maker);
    await expect(dialog.getByRole("status")).toContainText("3 packs match");
    await expect(dialog.getByRole("list", { name: "Where they are" }).getByRole("listitem")).not.toHaveCount(0);
    await press(page, "Tab");
    await expect(dialog.getByRole("textbox", { name: "Reason" })).toBeFocused();
    await page.keyboard.type(reason);
    await expectTabOrder(page, [dialog.getByRole("button", { name: "Cancel" }), dialog.getByRole("button", { name: "Recall 3 packs" })]);
    await settled(page);
    await expectNoAxeViolations(page, "the recall dialog");
  });

  await test.step("Enter recalls them: the recall page lists the 3 packs, each link reached with Tab in order", async () => {
    await page.keyboard.press("Enter");
    // the recall's answer opened its page: the focus the Recall button had is on its heading
    await expect(page.getByRole("heading", { level: 1, name: `Recall: Manufacturer ${maker}` })).toBeFocused();
    await expect(toast(page)).toBeVisible();
    await expect(page.getByText("0 of 3 back in the bay")).toBeVisible();
    await expect(page.getByText(reason)).toBeVisible();
    const rows = page.getByRole("list", { name: "Recalled packs" }).getByRole("listitem");
    await expect(rows).toHaveCount(3);
    for (const s of serials) expect(await packState(page.request, s)).toBe("quarantined");
    await settled(page);
    await expectNoAxeViolations(page, "the recall page");
    // the way back sits above the heading: Shift+Tab, then forward through the packs
    await tabTo(page, page.getByRole("link", { name: "← All recalls" }), { back: true });
    await tabTo(page, rows.getByRole("link", { name: serials[0] }));
    await expectTabOrder(page, [rows.getByRole("link", { name: serials[1] }), rows.getByRole("link", { name: serials[2] })]);
  });

  await test.step("Enter opens the last recalled pack; the admin retires it by keyboard", async () => {
    const serial = serials[2]!;
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: serial })).toBeVisible();
    const decisions = page.getByRole("region", { name: "Decide about this pack" });
    await tabTo(page, decisions.getByRole("button", { name: "Send to maintenance" }));
    await expectTabOrder(page, [decisions.getByRole("button", { name: "Back in service" }), decisions.getByRole("button", { name: "Retire" })]);
    await decide(page, "Retire", serial, "Cells swollen: out of the fleet");
    await expect(page.getByRole("region", { name: "Decide about this pack" })).toHaveCount(0);
    await expect(page.getByText("Retired", { exact: true }).first()).toBeVisible();
    expect(await packState(page.request, serial)).toBe("retired");
  });
});

// the driver's damage report is a phone's (desktop runs the admin's recall)
test("driver: reports a damaged pack with the keyboard; the admin decides about it by keyboard", { tag: "@phone" }, async ({ page, pb, playwright, unique }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const master = { email: unique("keys-master"), password: "master-secret-1", firstName: "Mara", lastName: "Keys" };
  await seedUser(pb, { ...master, role: "master_admin" });
  const masterApi = await apiAs(playwright.request, master);
  await setPackTracking(masterApi, "optional");
  try {
    const driver = { email: unique("keys-driver"), password: "driver-secret-1", firstName: "Dev", lastName: `Keys${stamp}` };
    const { id } = await seedUser(pb, driver);
    const [held, damaged] = (await mint(masterApi, 2, { manufacturer: "Voltcell", lot: `E2E-KEYS-D-${stamp}` })).sort() as [string, string];
    await keyed(masterApi, "/api/admin/assignments", { userId: id, quantity: 2, assignmentType: "home_charger", packs: [held, damaged] });
    const note = "Case cracked at the corner, smells of solvent";

    const choosers = fileChoosers(page);
    await signIn(page, driver.email, driver.password);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Driver Home" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("link", { name: /^Packs you hold: 2/ })).toBeVisible();
    // the dropoff's pack fields (and their scanner) arrive lazily: tabbing before they have would
    // see the page move under the focus
    await expect(page.getByText("Loading camera…")).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByRole("form", { name: "Battery Dropoff" }).getByRole("button", { name: "Scan" })).toHaveCount(2);
    await expect(page.getByRole("form", { name: "Battery Pickup" }).getByRole("button", { name: "Scan" })).toHaveCount(1);
    const opener = page.getByRole("button", { name: "Report a damaged pack" });
    const dialog = page.getByRole("dialog", { name: "Report a damaged pack" });
    const serialField = dialog.getByRole("textbox", { name: "Pack serial" });
    const choices = dialog.getByRole("group", { name: "Packs you hold" });

    await test.step("Enter opens the report with the focus in it; Escape closes it back onto its button", async () => {
      await tabTo(page, opener);
      await expectOpensAndEscapes(page, opener, dialog, serialField);
    });

    await test.step("the controls in order: serial, the held packs, what is wrong, the photo field, Take a photo, Cancel, Send report, Close; the trap wraps", async () => {
      await page.keyboard.press("Enter");
      await expectFocusIn(dialog);
      await expect(serialField).toBeFocused();
      await expectTabOrder(page, [
        choices.getByRole("button", { name: held }),
        choices.getByRole("button", { name: damaged }),
        dialog.getByRole("textbox", { name: "What is wrong" }),
        dialog.getByLabel("Photos (up to 10)"),
        dialog.getByRole("button", { name: "Take a photo" }),
        dialog.getByRole("button", { name: "Cancel" }),
        dialog.getByRole("button", { name: "Send report" }),
        dialog.getByRole("button", { name: "Close" }),
        serialField,
      ]);
    });

    await test.step("Space picks a held pack, the note is typed, photos come from the file field and the camera button; one is removed", async () => {
      await tabTo(page, choices.getByRole("button", { name: damaged }));
      await press(page, "Space");
      await expect(choices.getByRole("button", { name: damaged, pressed: true })).toBeVisible();
      await expect(serialField).toHaveValue(damaged);
      await press(page, "Tab");
      await expect(dialog.getByRole("textbox", { name: "What is wrong" })).toBeFocused();
      await page.keyboard.type(note);
      await press(page, "Tab");
      await choosers.choose("Space", { name: "cracked.png" });
      const photos = dialog.getByRole("list", { name: "Photos to send" });
      await expect(photos.getByRole("img", { name: "cracked.png" })).toBeVisible();
      await press(page, "Tab");
      await expect(dialog.getByRole("button", { name: "Take a photo" })).toBeFocused();
      await choosers.choose("Enter", { name: "corner.png" });
      await expect(photos.getByRole("img", { name: "corner.png" })).toBeVisible();
      await expectTabOrder(page, [photos.getByRole("button", { name: "Remove cracked.png" }), photos.getByRole("button", { name: "Remove corner.png" })]);
      await page.keyboard.press("Enter");
      await expect(photos.getByRole("img", { name: "corner.png" })).toHaveCount(0);
      // the removed photo's button is gone: the focus moves to the other photo's, visibly
      await expect(photos.getByRole("button", { name: "Remove cracked.png" })).toBeFocused();
      await expectFocusIn(dialog);
      await settled(page);
      await expectNoAxeViolations(page, "the damage report with a photo");
    });

    await test.step("Send report by keyboard: the pack is quarantined, the toast and the holdings say so, focus is back on the button", async () => {
      await tabTo(page, dialog.getByRole("button", { name: "Send report" }));
      await page.keyboard.press("Enter");
      await expect(toast(page).getByText(`Damage reported: pack ${damaged} is quarantined`)).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(opener).toBeFocused();
      await expectFocusVisible(page);
      await expect(page.getByRole("link", { name: /^Packs you hold: 2/ })).toContainText(`${damaged}: quarantined — bring it to the bay`);
      expect(await packState(masterApi, damaged)).toBe("quarantined");
    });

    await test.step("the admin's decisions on the quarantined pack: Escape from Retire, then maintenance, then back in service", async () => {
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.goto(`/packs/${damaged}`);
      await expect(page.getByRole("heading", { level: 1, name: damaged })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("list", { name: "History" })).toContainText(note);
      const decisions = page.getByRole("region", { name: "Decide about this pack" });
      await tabTo(page, decisions.getByRole("button", { name: "Send to maintenance" }));
      await expectTabOrder(page, [decisions.getByRole("button", { name: "Back in service" }), decisions.getByRole("button", { name: "Retire" })]);
      await page.keyboard.press("Enter");
      const retire = page.getByRole("dialog", { name: `Retire: ${damaged}` });
      await expectFocusIn(retire);
      await expect(retire.getByLabel("Reason")).toBeFocused();
      await expectTabOrder(page, [retire.getByRole("button", { name: "Cancel" }), retire.getByRole("button", { name: "Retire" }), retire.getByRole("button", { name: "Close" }), retire.getByLabel("Reason")]);
      await settled(page);
      await expectNoAxeViolations(page, "the decision dialog");
      await press(page, "Escape");
      await expect(retire).toHaveCount(0);
      await expect(decisions.getByRole("button", { name: "Retire" })).toBeFocused();
      expect(await packState(masterApi, damaged)).toBe("quarantined");

      await expectTabOrder(page, [decisions.getByRole("button", { name: "Back in service" }), decisions.getByRole("button", { name: "Send to maintenance" })], { back: true });
      await decide(page, "Send to maintenance", damaged, "Case to be replaced");
      const actions = page.getByRole("region", { name: "Actions" });
      await expect(actions.getByRole("button", { name: "Back in service" })).toBeVisible();
      expect(await packState(masterApi, damaged)).toBe("maintenance");

      await tabTo(page, actions.getByRole("button", { name: "Back in service" }));
      await decide(page, "Back in service", damaged, "New case fitted and checked");
      await expect(actions.getByRole("button", { name: "Declare lost" })).toBeVisible();
      await expect(actions.getByRole("button", { name: "Back in service" })).toHaveCount(0);
      expect(await packState(masterApi, damaged)).toBe("in_service");
    });
  } finally {
    await setPackTracking(masterApi, "off");
  }
});
