import { describe, expect, it } from "vitest";
import { fallbackFocus } from "@/components/ui/return-focus";

// jsdom has no layout: every element reports client rects only when given a size
function sized<T extends HTMLElement>(el: T): T {
  el.getClientRects = () => [{ width: 10, height: 10 }] as unknown as DOMRectList;
  return el;
}

describe("fallbackFocus", () => {
  it("focuses the first control left in the nearest ancestor still on the page", () => {
    const table = sized(document.createElement("div"));
    const row = sized(document.createElement("div"));
    const gone = sized(document.createElement("button"));
    row.append(gone);
    const next = sized(document.createElement("button"));
    table.append(next);
    document.body.append(table);
    // the row was removed with its button (Mark Done)
    expect(fallbackFocus([row, table])).toBe(next);
    expect(document.activeElement).toBe(next);
    table.remove();
  });

  it("focuses the ancestor itself, made focusable, when it holds no control", () => {
    const card = sized(document.createElement("section"));
    card.append(document.createTextNode("No active charging sessions"));
    document.body.append(card);
    expect(fallbackFocus([card])).toBe(card);
    expect(card.getAttribute("tabindex")).toBe("-1");
    card.blur();
    expect(card.hasAttribute("tabindex")).toBe(false);
    card.remove();
  });
});
