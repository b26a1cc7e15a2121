import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import type { PackModel } from "@/features/packs/api/get-pack-models";
import { apiRequest } from "@/lib/api-client";
import { invalidate } from "@/lib/invalidation";

const decimal = /^\d+(\.\d+)?$/;

/** inRange: empty (0, not known) or a plain decimal number from min to max. */
const inRange = (min: number, max: number, emptyOk: boolean) => (v: string) =>
  (emptyOk && v === "") || (decimal.test(v) && Number(v) >= min && Number(v) <= max);

/** packModelSchema is the model form (numbers as typed; the server's messages, and it checks them again). */
export const packModelSchema = z.object({
  nominalWh: z.string().check(z.trim(), z.refine(inRange(0, 100_000, true), "Nominal energy must be a number from 0 to 100000 Wh")),
  ratedAh: z.string().check(z.trim(), z.refine(inRange(0, 10_000, true), "Rated capacity must be a number from 0 to 10000 Ah")),
  threshold: z.string().check(z.trim(), z.refine(inRange(1, 100, false), "The end-of-life threshold must be a number from 1 to 100 (%)")),
});

/** PackModelValues are the model form's values (as typed). */
export type PackModelValues = z.infer<typeof packModelSchema>;

/** modelFormValues fills the form from a model (an unknown figure, 0, is left empty). */
export function modelFormValues(m: PackModel): PackModelValues {
  return { nominalWh: m.nominalWh > 0 ? String(m.nominalWh) : "", ratedAh: m.ratedAh > 0 ? String(m.ratedAh) : "", threshold: String(m.threshold) };
}

/** modelBody is the PUT's body for model: numbers, an empty figure as 0 (not known). */
export function modelBody(model: string, v: PackModelValues) {
  const figure = (s: string) => (s.trim() === "" ? 0 : Number(s));
  return { model, nominalWh: figure(v.nominalWh), ratedAh: figure(v.ratedAh), threshold: Number(v.threshold) };
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
