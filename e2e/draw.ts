import type { Locator, Page } from "@playwright/test";

/** drawSignature scribbles a signature with the mouse across the canvas. */
export async function drawSignature(page: Page, canvas: Locator): Promise<void> {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error("signature canvas is not visible");
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + 20 + i * ((box.width - 60) / 12), y + (i % 2 ? -25 : 25), { steps: 3 });
  }
  await page.mouse.up();
}
