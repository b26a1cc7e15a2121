import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Select, SelectTrigger, SelectValue } from "@/components/ui/select";

afterEach(cleanup);

describe("SelectTrigger", () => {
  // the Pack tracking card's "Required — every battery move names its packs" was cut mid-word at 360 px
  it("lets a long choice wrap instead of clipping it on one line", () => {
    render(
      <Select value="a">
        <SelectTrigger aria-label="Mode">
          <SelectValue placeholder="Pick" />
        </SelectTrigger>
      </Select>,
    );
    const trigger = screen.getByRole("combobox", { name: "Mode" });
    const cls = trigger.className.split(/\s+/);
    expect(cls).not.toContain("whitespace-nowrap");
    expect(cls).not.toContain("h-9"); // a fixed height would clip the second line
    expect(cls).toContain("min-h-9");
  });
});
