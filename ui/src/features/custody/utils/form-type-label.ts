import { assignmentTypeLabel } from "@/lib/format-ops";

/** EXTRA_FORM_LABELS name the types only the assignment form offers (lists show them as 'Assignment'). */
const EXTRA_FORM_LABELS: Record<string, string> = { storage: "Storage", repair: "Repair", other: "Other" };

/** formTypeLabel names an assignment type in the assignment form. */
export function formTypeLabel(type: string): string {
  return EXTRA_FORM_LABELS[type] ?? assignmentTypeLabel(type);
}
