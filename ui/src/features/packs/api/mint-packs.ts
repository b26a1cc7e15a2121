import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { apiRequest } from "@/lib/api-client";
import { invalidateUrls } from "@/lib/invalidation";

/** MAX_MINT is the most packs one mint makes (the server's bound). */
export const MAX_MINT = 1000;

/** mintSchema is the mint form: how many and the specs they share. */
export const mintSchema = z.object({
  count: z
    .string()
    .check(
      z.trim(),
      z.refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_MINT, `Number of packs must be a whole number from 1 to ${MAX_MINT}`),
    ),
  model: z.string().check(z.trim(), z.minLength(1, "Model is required"), z.maxLength(100, "At most 100 characters")),
  chemistry: z.string().check(z.trim(), z.maxLength(100, "At most 100 characters")),
  nominalWh: z
    .string()
    .check(
      z.trim(),
      z.refine((v) => v === "" || (/^\d+(\.\d+)?$/.test(v) && Number(v) <= 100_000), "Nominal Wh must be a number from 0 to 100000"),
    ),
  manufacturer: z.string().check(z.trim(), z.maxLength(100, "At most 100 characters")),
  lot: z.string().check(z.trim(), z.maxLength(100, "At most 100 characters")),
  manufactured: z.string().check(z.trim(), z.refine((v) => v === "" || /^\d{4}-(0[1-9]|1[0-2])$/.test(v), "Month of manufacture must be YYYY-MM")),
});

/** MintValues are the mint form's values (as typed). */
export type MintValues = z.infer<typeof mintSchema>;

/** MintAnswer is POST /api/admin/packs/mint's answer. */
export type MintAnswer = { message: string; packs: { id: string; serial: string }[]; labelsUrl: string };

/** useMintPacks registers new packs; the packs list refetches. */
export function useMintPacks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: MintValues; idempotencyKey: string }) =>
      apiRequest<MintAnswer>(
        "POST",
        "/api/admin/packs/mint",
        { ...values, count: Number(values.count), nominalWh: values.nominalWh === "" ? 0 : Number(values.nominalWh) },
        { idempotencyKey },
      ),
    onSuccess: () => invalidateUrls(qc, ["/api/packs"]),
  });
}
