// @vitest-environment node
import { describe, expect, it } from "vitest";
import { serialFromCode } from "@/lib/serial";

describe("serialFromCode", () => {
  it.each([
    ["https://bay.example/p/SWB-000123", "SWB-000123"],
    ["http://localhost:8090/p/swb-000001", "SWB-000001"], // any site, any case
    ["https://other-city.example/p/SWB-000007/", "SWB-000007"],
    ["https://bay.example/p/SWB-000007?from=label#top", "SWB-000007"],
    ["https://bay.example/p/OLD%2E1", "OLD.1"], // escaped as labels.go's url.PathEscape may
    ["/p/SWB-000002", "SWB-000002"],
    ["  SWB-000009\n", "SWB-000009"], // a bare serial, typed or on an older label
    ["lv-1.2", "LV-1.2"],
  ])("reads %j as %s", (code, serial) => {
    expect(serialFromCode(code)).toBe(serial);
  });

  it.each([
    "",
    "   ",
    "https://example.com/product/123", // another site's URL
    "WIFI:S:garage;T:WPA;P:secret;;",
    "4006381333931 x", // spaces: not one serial
    "https://bay.example/p/", // no serial after /p/
    "https://bay.example/p/%E0%A4%A", // a broken escape
    "-SWB-1", // must start with a letter or digit
    "A".repeat(41), // serials are at most 40 characters
    "SWB_000001",
  ])("refuses %j", (code) => {
    expect(serialFromCode(code)).toBeNull();
  });
});
