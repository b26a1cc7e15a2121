import DOMPurify from "dompurify";

/**
 * sanitizeTermsHtml strips scripts, event handlers and unsafe URLs from the admin-authored
 * terms HTML; links keep only http, https, mailto and tel addresses.
 */
export function sanitizeTermsHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "iframe", "object", "embed"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|#|\/)/i,
  });
}
