// @vitest-environment node
import { describe, expect, it } from "vitest";
import { reducer } from "@/hooks/use-toast";

describe("toast store", () => {
  it("keeps one toast at a time, the newest", () => {
    let state = { toasts: [] as { id: string; title?: string }[] };
    state = reducer(state, { type: "ADD_TOAST", toast: { id: "1", title: "first" } });
    state = reducer(state, { type: "ADD_TOAST", toast: { id: "2", title: "second" } });
    expect(state.toasts.map((t) => t.title)).toEqual(["second"]);
  });
});
