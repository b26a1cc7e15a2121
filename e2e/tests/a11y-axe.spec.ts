// The shared axe check itself (e2e/a11y.ts, issue 28 item 4 and issue 32). axe on every screen
// of every role at every width runs in one table: tests/screens.spec.ts (issue 44).
import { axeViolations } from "../a11y";
import { expect, test } from "../fixtures";

// The shared check itself (issue 32): Label in Name runs (axe's rule is experimental, so a tag
// list alone never ran it), and a name must begin with the shown text, where axe asks only
// that it contain it.
test("Label in Name: a name that leaves out, or does not begin with, the shown text fails", async ({ page }) => {
  await page.setContent(`<main>
    <button type="button" aria-label="Account menu for Alex Brandt">AB</button>
    <button type="button" aria-label="Options for: Sam dropped off 3">Sam dropped off 3</button>
    <button type="button" aria-describedby="h">128 This week</button><span id="h" hidden>Tap to switch the week</span>
    <button type="button" aria-label="Close"><svg aria-hidden="true" width="24" height="24"></svg></button>
  </main>`);
  const found = await axeViolations(page);
  expect(found.find((v) => v.startsWith("label-content-name-mismatch"))).toContain("Text inside the element is not included");
  const start = found.find((v) => v.startsWith("label-in-name-start")) ?? "";
  expect(start).toContain('named "Account menu for Alex Brandt" shows "ab"');
  expect(start).toContain('named "Options for: Sam dropped off 3"');
  expect(start).not.toContain("128");
  expect(start).not.toContain("Close");
});
