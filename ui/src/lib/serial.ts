// What a scanned code means (DESIGN.md §14 Labels): a label's QR holds <site>/p/<serial> so
// any phone camera opens the pack; the app's scanner accepts that URL from any site (a label
// printed for another city, a site renamed) or the bare serial (typed, or an older label).
// It is the one place the UI reads a code (typed lists too: splitSerials); the server reads a
// code the same way in one place (modules/journal Serial).

/** SERIAL_PATTERN is what a serial may be once upper-cased (modules/packs/import.go serialPattern). */
export const SERIAL_PATTERN = /^[A-Z0-9][A-Z0-9.-]{0,39}$/;

/**
 * serialFromCode answers the serial in a scanned or typed code — "<any site>/p/<serial>" or a
 * bare serial — upper-cased; null when the text is not a SwapBay label (another URL, a
 * product barcode with spaces, an empty string).
 */
export function serialFromCode(text: string): string | null {
  let s = text.trim();
  const at = s.lastIndexOf("/p/");
  if (at >= 0) {
    s = s.slice(at + 3).replace(/[/?#].*$/s, "");
    try {
      s = decodeURIComponent(s);
    } catch {
      return null;
    }
  } else if (/[/:]/.test(s)) {
    return null; // a URL, but not a pack's
  }
  s = s.toUpperCase();
  return SERIAL_PATTERN.test(s) ? s : null;
}
