import type { Agreement } from "@/features/terms/api/terms";

/** filterAgreements keeps the agreements whose signer's name or email contains query (any case). */
export function filterAgreements(agreements: readonly Agreement[], query: string): Agreement[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...agreements];
  return agreements.filter((a) => `${a.firstName} ${a.lastName}`.toLowerCase().includes(q) || a.email.toLowerCase().includes(q));
}

/** signatureLabel is how an agreement was signed, as the table shows it: 'Drawn' or 'Typed'. */
export function signatureLabel(a: Pick<Agreement, "signatureMethod">): string {
  return a.signatureMethod === "typed" ? "Typed" : "Drawn";
}

/** FAILED_PDF_MESSAGE is what clicking a failed PDF says (spec part 2 §2). */
export const FAILED_PDF_MESSAGE = "PDF Generation Failed: This legal document failed to generate. Please use the 'Retry PDF' button to regenerate it.";

/** footer is the agreements table's count line: the total, and what the search kept. */
export function footer(shown: number, total: number, query: string): string {
  const noun = total === 1 ? "agreement" : "agreements";
  if (!query) return `${total} signed ${noun}`;
  return `Showing ${shown} of ${total} signed ${noun} matching "${query}"`;
}
