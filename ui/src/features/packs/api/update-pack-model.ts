import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import type { PackModel } from "@/features/packs/api/get-pack-models";
import { apiRequest } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";

const decimal = /^\d+(\.\d+)?$/;

/** packModelSchema is the model form (numbers as typed; the server checks them again). */
export const packModelSchema = z.object({
  nominalWh: z
    .string()
    .check(z.trim(), z.refine((v) => decimal.test(v) && Number(v) > 0 && Number(v) <= 100_000, "Nominal Wh must be a number above 0 and at most 100000")),
  ratedAh: z
    .string()
    .check(
      z.trim(),
      z.refine((v) => v === "" || (decimal.test(v) && Number(v) > 0 && Number(v) <= 10_000), "Rated Ah must be a number above 0 and at most 10000, or empty"),
    ),
  threshold: z
    .string()
    .check(z.trim(), z.refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100, "Threshold must be a whole number from 1 to 100")),
});

/** PackModelValues are the model form's values (as typed). */
export type PackModelValues = z.infer<typeof packModelSchema>;

/** modelFormValues fills the form from a model (an unknown figure, 0, is left empty). */
export function modelFormValues(m: PackModel): PackModelValues {
  return { nominalWh: m.nominalWh > 0 ? String(m.nominalWh) : "", ratedAh: m.ratedAh > 0 ? String(m.ratedAh) : "", threshold: String(m.threshold) };
}

/** modelBody is the PUT's body for model: numbers, an empty rated Ah as 0 (not known). */
export function modelBody(model: string, v: PackModelValues) {
  return { model, nominalWh: Number(v.nominalWh), ratedAh: v.ratedAh.trim() === "" ? 0 : Number(v.ratedAh), threshold: Number(v.threshold) };
}

/** UpdatePackModelAnswer is PUT /api/admin/packs/models' answer. */
export type UpdatePackModelAnswer = { success: boolean; message: string; model: PackModel };

/** useUpdatePackModel saves one model's figures (its packs' health is derived again); the models, packs and health refetch. */
export function useUpdatePackModel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ model, values, idempotencyKey }: { model: string; values: PackModelValues; idempotencyKey: string }) =>
      apiRequest<UpdatePackModelAnswer>("PUT", "/api/admin/packs/models", modelBody(model, values), { idempotencyKey }),
    onSuccess: () => invalidate(qc, "packs"),
  });
}
