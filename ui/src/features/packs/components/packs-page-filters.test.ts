import { describe, expect, it } from "vitest";
import { filterParams, initialFilters } from "@/features/packs/components/packs-page";

describe("initialFilters", () => {
  it("opens the list with a link's state, location, missing, worn and lot filters, ignoring what it does not know", () => {
    expect(initialFilters(new URLSearchParams("state=quarantined"))).toEqual({ state: "quarantined" });
    expect(initialFilters(new URLSearchParams("missing=1&lot=%20L-7%20"))).toEqual({ missing: true, lot: "L-7" });
    expect(initialFilters(new URLSearchParams("worn=1&location=charging"))).toEqual({ worn: true, location: "charging" });
    expect(initialFilters(new URLSearchParams("state=broken&missing=yes&worn=true&location=moon"))).toEqual({});
    expect(initialFilters(new URLSearchParams(""))).toEqual({});
  });
});

describe("filterParams", () => {
  it("writes the filters into the page's URL the way initialFilters reads them back (not the search or the page)", () => {
    const f = { state: "in_service", location: "ready", missing: true, worn: true, lot: " L-7 " };
    expect(filterParams(f).toString()).toBe("state=in_service&location=ready&missing=1&worn=1&lot=L-7");
    expect(initialFilters(filterParams(f))).toEqual({ ...f, lot: "L-7" });
    expect(filterParams({ q: "SWB", page: 3, worn: false }).toString()).toBe("");
  });
});
