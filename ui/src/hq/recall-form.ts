// The New recall dialog's rules (the city's own words: modules/packs/recall.go): what a recall matches (a lot, a model or a manufacturer), the
// value and the reason, checked before the preview is asked for.
import * as z from "zod/mini";
import type { RecallBy } from "@/hq/api";

export const MSG_VALUE_REQUIRED = "Choose the lot, model or manufacturer to recall";
export const MSG_VALUE_TOO_LONG = MSG_VALUE_REQUIRED;
export const MSG_REASON_REQUIRED = "Please give a reason for the recall";
export const MSG_REASON_TOO_LONG = "A reason can be at most 2000 characters";

export const RECALL_BY_OPTIONS: { value: RecallBy; label: string }[] = [
  { value: "lot", label: "Lot" },
  { value: "model", label: "Model" },
  { value: "manufacturer", label: "Manufacturer" },
];

export const recallSchema = z.object({
  by: z.enum(["lot", "model", "manufacturer"]),
  value: z.string().check(z.trim(), z.minLength(1, MSG_VALUE_REQUIRED), z.maxLength(100, MSG_VALUE_TOO_LONG)),
  reason: z.string().check(z.trim(), z.minLength(1, MSG_REASON_REQUIRED), z.maxLength(2000, MSG_REASON_TOO_LONG)),
});

export type RecallValues = z.infer<typeof recallSchema>;
