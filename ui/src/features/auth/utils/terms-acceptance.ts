export { sanitizeTermsHtml } from "@/lib/terms-html";

/** SIGNATURE_PAD is the signature pad's pen (spec part 1 §9). */
export const SIGNATURE_PAD = {
  minWidth: 0.5,
  maxWidth: 2.5,
  throttle: 16,
  minDistance: 5,
  penColor: "black",
} as const;

/** SIGNATURE_HEIGHT is the signature canvas height in px. */
export const SIGNATURE_HEIGHT = 120;

/** signatureWidth: 450 px, or the window width minus 100 when that is smaller. */
export function signatureWidth(windowWidth: number): number {
  return Math.max(0, Math.min(450, windowWidth - 100));
}

/** TermsAcceptance is the modal's state that decides whether Accept is enabled. */
export type TermsAcceptance = { read: boolean; agreed: boolean; hasSignature: boolean; submitting: boolean };

/**
 * canAcceptTerms: 'Accept Terms & Sign' is enabled only when read and agree are ticked, a
 * non-empty signature exists and no request is running (spec part 1 §4).
 */
export function canAcceptTerms({ read, agreed, hasSignature, submitting }: TermsAcceptance): boolean {
  return read && agreed && hasSignature && !submitting;
}

