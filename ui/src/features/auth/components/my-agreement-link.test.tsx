import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AccountBlocked } from "@/components/feedback/account-blocked";
import { MY_AGREEMENT_URL } from "@/features/auth/api/get-my-agreement";
import { MyAgreementLink } from "@/features/auth/components/my-agreement-link";

vi.mock("@/lib/auth", () => ({ useLogout: () => ({ mutate: vi.fn(), isPending: false }) }));

const AGREEMENT = { id: "ag1", termsVersion: "2025.1", signedAt: "2026-01-05T23:30:00.000Z", pdfStatus: "available", pdfUrl: "/api/agreements/ag1/pdf" };

function renderPending(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <AccountBlocked state="pending">
        <MyAgreementLink />
      </AccountBlocked>
    </QueryClientProvider>,
  );
  return { fetch, qc };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("the pending screen", () => {
  it("links the signer's own agreement PDF", async () => {
    const { fetch } = renderPending(200, AGREEMENT);
    const link = await screen.findByRole("link", { name: "Download your signed agreement" });
    expect(link.getAttribute("href")).toBe("/api/agreements/ag1/pdf");
    expect(link.hasAttribute("download")).toBe(true);
    expect(fetch.mock.calls[0]![0]).toBe(MY_AGREEMENT_URL);
    expect(screen.getByRole("heading", { name: "Account Pending Approval" })).toBeDefined();
    expect(screen.getByRole("button", { name: "Sign Out" })).toBeDefined();
  });
  it("has no link when the user has no agreement (404)", async () => {
    const { qc } = renderPending(404, { status: 404, message: "No signed agreement", data: {} });
    // the 404 is an answer (no agreement), not a failure
    await waitFor(() => expect(qc.getQueryState([MY_AGREEMENT_URL])?.status).toBe("success"));
    expect(qc.getQueryData([MY_AGREEMENT_URL])).toBeNull();
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.queryByText(/Signed /)).toBeNull();
    expect(screen.getByRole("button", { name: "Sign Out" })).toBeDefined();
  });
  it("says the PDF is being prepared while it is generated, and that it failed after a failure, without a link", async () => {
    renderPending(200, { ...AGREEMENT, pdfStatus: "generating", pdfUrl: "" });
    expect(await screen.findByText(/Your signed agreement is being prepared/)).toBeDefined();
    expect(screen.queryByRole("link")).toBeNull();
    document.body.innerHTML = "";
    renderPending(200, { ...AGREEMENT, pdfStatus: "failed", pdfUrl: "ERROR: render failed" });
    expect(await screen.findByText(/PDF generation failed. Please contact admin to regenerate this legal document./)).toBeDefined();
    expect(screen.queryByRole("link")).toBeNull();
  });
});
