import { describe, expect, it } from "vitest";
import { initialFilters } from "@/features/packs/components/packs-page";

describe("initialFilters", () => {
  it("opens the list with a link's state, missing and lot filters, ignoring what it does not know", () => {
    expect(initialFilters(new URLSearchParams("state=quarantined"))).toEqual({ state: "quarantined" });
    expect(initialFilters(new URLSearchParams("missing=1&lot=%20L-7%20"))).toEqual({ missing: true, lot: "L-7" });
    expect(initialFilters(new URLSearchParams("state=broken&missing=yes"))).toEqual({});
    expect(initialFilters(new URLSearchParams(""))).toEqual({});
  });
});
