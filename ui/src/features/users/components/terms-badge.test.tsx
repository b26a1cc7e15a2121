import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import type { TermsStatus } from "@/features/users/api/get-users";
import { PDF_FAILED_ALERT, TermsBadge } from "@/features/users/components/terms-badge";

const status = (s: Partial<TermsStatus>): TermsStatus => ({ signed: true, pdfStatus: "available", signedAt: "", version: "2025.1", agreementId: "a1", ...s });

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("TermsBadge (spec part 2 §2)", () => {
  it("a failed PDF: the tooltip says so and opening the badge shows the spec's alert", async () => {
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    render(
      <TooltipProvider delayDuration={0}>
        <TermsBadge status={status({ pdfStatus: "failed" })} />
      </TooltipProvider>,
    );
    const badge = screen.getByRole("button", { name: "Signed v2025.1 · PDF failed" });
    await userEvent.hover(badge);
    expect((await screen.findAllByText("Terms signed but PDF generation failed")).length).toBeGreaterThan(0);
    await userEvent.click(badge);
    expect(alert).toHaveBeenCalledWith(PDF_FAILED_ALERT);
    expect(PDF_FAILED_ALERT).toBe("PDF generation failed. Please contact admin to regenerate this legal document.");
  });

  it("signed with a PDF, and not signed, are plain badges", () => {
    const { container, rerender } = render(<TermsBadge status={status({})} />);
    expect(within(container).getByText("Signed v2025.1")).toBeTruthy();
    expect(within(container).queryByRole("button")).toBeNull();
    rerender(<TermsBadge status={status({ signed: false })} />);
    expect(within(container).getByText("Not signed")).toBeTruthy();
  });
});
