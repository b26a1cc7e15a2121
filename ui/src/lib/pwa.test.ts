import { afterEach, describe, expect, it } from "vitest";
import { hasHalfFilledForm, resetEditsForTests } from "@/lib/pwa";

afterEach(() => {
  document.body.innerHTML = "";
  resetEditsForTests();
});

function type(el: HTMLInputElement | HTMLTextAreaElement, text: string) {
  el.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
  el.value = text;
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("hasHalfFilledForm (the update prompt's check)", () => {
  it("a form that loaded filled and was not edited does not count", () => {
    document.body.innerHTML = `<form><input id="a" value="Battery dropoff prompt"><textarea id="b">Saved notes</textarea></form>`;
    expect(hasHalfFilledForm()).toBe(false);
    // focused (tabbed through) but not changed: still not
    document.getElementById("a")!.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(hasHalfFilledForm()).toBe(false);
  });
  it("a field the user edited counts, until it is back to what it held or the form is sent", () => {
    document.body.innerHTML = `<form id="f"><input id="a" value="old"><input id="q" type="number"></form>`;
    const a = document.getElementById("a") as HTMLInputElement;
    type(a, "new");
    expect(hasHalfFilledForm()).toBe(true);
    type(a, "old");
    expect(hasHalfFilledForm()).toBe(false);
    const q = document.getElementById("q") as HTMLInputElement;
    type(q, "3");
    expect(hasHalfFilledForm()).toBe(true);
    document.getElementById("f")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    expect(hasHalfFilledForm()).toBe(false);
    // the app empties the sent form (react-hook-form's reset sets the values, no DOM reset event)
    q.value = "";
    expect(hasHalfFilledForm()).toBe(false);
  });
  it("checkboxes do not count", () => {
    document.body.innerHTML = `<form><input id="c" type="checkbox"></form>`;
    const c = document.getElementById("c") as HTMLInputElement;
    c.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    c.checked = true;
    expect(hasHalfFilledForm()).toBe(false);
  });
});
