import * as z from "zod/mini";
import { timeZone, today } from "@/lib/format";

// The server's messages (modules/terms/versions.go): the form says the same before sending.
export const MSG_VERSION_REQUIRED = "Version is required";
export const MSG_VERSION_TOO_LONG = "Version can be at most 50 characters";
export const MSG_TITLE_REQUIRED = "Title is required";
export const MSG_TITLE_TOO_LONG = "Title can be at most 300 characters";
export const MSG_EFFECTIVE_DATE = "Effective date must be a date (YYYY-MM-DD)";
export const MSG_CONTENT_REQUIRED = "Content is required";

/** SIGNED_VERSION_REASON says why Edit is disabled on a version someone has signed. */
export const SIGNED_VERSION_REASON = "Signed versions cannot be edited: create a new version instead.";

/** versionSchema validates the Create and Edit forms (Version, Effective Date, Title, Content). */
export const versionSchema = z.object({
  version: z.string().check(
    z.refine((s) => s.trim() !== "", MSG_VERSION_REQUIRED),
    z.refine((s) => [...s.trim()].length <= 50, MSG_VERSION_TOO_LONG),
  ),
  effectiveDate: z.string().check(z.refine((s) => isDate(s), MSG_EFFECTIVE_DATE)),
  title: z.string().check(
    z.refine((s) => s.trim() !== "", MSG_TITLE_REQUIRED),
    z.refine((s) => [...s.trim()].length <= 300, MSG_TITLE_TOO_LONG),
  ),
  content: z.string().check(z.refine((s) => hasText(s), MSG_CONTENT_REQUIRED)),
});

/** VersionForm is what the Create and Edit forms hold. */
export type VersionForm = z.infer<typeof versionSchema>;

/** isDate reports a real calendar date written YYYY-MM-DD. */
export function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** hasText reports HTML with some visible text (an empty editor gives "" or "<p></p>"). */
export function hasText(html: string): boolean {
  return html.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " ").trim() !== "";
}

/** emptyVersion is a blank Create form, effective today in the operation's zone. */
export function emptyVersion(now: Date = new Date(), zone: string | undefined = timeZone()): VersionForm {
  return { version: "", effectiveDate: today(now, zone), title: "", content: "" };
}
