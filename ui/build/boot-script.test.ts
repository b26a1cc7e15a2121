// @vitest-environment node
import { describe, expect, it } from "vitest";
import { cspHash } from "./boot-script";

describe("bootScript", () => {
  it("has the CSP hash of its exact text", () => {
    // echo -n 'x' | openssl dgst -sha256 -binary | base64
    expect(cspHash("x")).toBe("sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE=");
  });
});
