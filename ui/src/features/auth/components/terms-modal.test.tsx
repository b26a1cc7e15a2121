import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ActiveTerms, activeTermsQueryOptions } from "@/features/auth/api/get-active-terms";
import { TermsModal } from "@/features/auth/components/terms-modal";

// jsdom has no canvas: the pad and the handwriting font are stood in for
vi.mock("@/components/ui/signature-pad", () => ({ SignaturePad: () => <div role="img" aria-label="Digital Signature" /> }));
vi.mock("@/features/auth/utils/typed-signature", () => ({
  MAX_TYPED_NAME: 100,
  drawTypedSignature: () => {},
  loadSignatureFont: () => Promise.resolve(),
  typedSignaturePNG: () => Promise.resolve("data:image/png;base64,AA=="),
}));

afterEach(cleanup);

const TERMS: ActiveTerms = { id: "t1", title: "Terms", version: "1.0", effectiveDate: "2026-01-01", content: "<p>One</p>", contentHash: "h1" };

function renderModal(onAccept = vi.fn()) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(activeTermsQueryOptions.queryKey, TERMS);
  render(
    <QueryClientProvider client={qc}>
      <TermsModal open submitting={false} onCancel={() => {}} onAccept={onAccept} />
    </QueryClientProvider>,
  );
  return { qc, onAccept };
}

const readBox = () => screen.getByRole("checkbox", { name: "I have read and understood the Terms and Conditions above" });
const agreeBox = () => screen.getByRole("checkbox", { name: "I agree to be bound by these Terms and Conditions" });

// typing a name and ticking Radix boxes takes seconds on a loaded 2-core machine
describe("TermsModal", { timeout: 30_000 }, () => {
  it("sends the hash of the terms it showed with a typed signature", async () => {
    const user = userEvent.setup();
    const { onAccept } = renderModal();
    await user.click(readBox());
    await user.click(agreeBox());
    await user.click(screen.getByRole("tab", { name: "Type your name" }));
    await user.type(screen.getByLabelText("Type your full name"), "Rhea Resign");
    await user.click(screen.getByRole("button", { name: "Accept Terms & Sign" }));
    expect(onAccept).toHaveBeenCalledWith(expect.objectContaining({ signatureMethod: "typed", signatureText: "Rhea Resign", termsHash: "h1" }));
  });

  it("clears both boxes when other terms come in (the server refused a signature of the old ones)", async () => {
    const user = userEvent.setup();
    const { qc } = renderModal();
    await user.click(readBox());
    await user.click(agreeBox());
    expect(readBox().getAttribute("aria-checked")).toBe("true");
    const next: ActiveTerms = { ...TERMS, version: "2.0", content: "<p>Two</p>", contentHash: "h2" };
    act(() => qc.setQueryData(activeTermsQueryOptions.queryKey, next));
    await screen.findByText("Two");
    expect(readBox().getAttribute("aria-checked")).toBe("false");
    expect(agreeBox().getAttribute("aria-checked")).toBe("false");
    // the new text has the focus (Accept turned off under it), to be read from its top
    const text = screen.getByText("Two").closest<HTMLElement>("[data-slot=scroll-area-viewport]");
    expect(document.activeElement).toBe(text);
    expect(text?.scrollTop).toBe(0);
  });

  it("keeps the boxes when the same terms are read again", async () => {
    const user = userEvent.setup();
    const { qc } = renderModal();
    await user.click(readBox());
    const same: ActiveTerms = { ...TERMS };
    act(() => qc.setQueryData(activeTermsQueryOptions.queryKey, same));
    expect(readBox().getAttribute("aria-checked")).toBe("true");
  });
});
