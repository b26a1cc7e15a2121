import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type DefaultValues, type Resolver, useForm } from "react-hook-form";
import { toast } from "@/hooks/use-toast";
import { apiRequest } from "@/lib/api-client";
import { newIdempotencyKey } from "@/lib/idempotency";
import { useInventory } from "@/lib/inventory";
import { invalidate } from "@/lib/invalidation";
import { toastError } from "@/lib/toast-error";

/** SettingsText is a block of settings as its form holds them: key → text. */
export type SettingsText = Record<string, string>;

/**
 * settingsBody is POST /api/admin/settings's body: every field, a blank one included — the
 * server stores a blank as "no value", so clearing a prompt and saving resets it (issue 32:
 * spec part 2 §5's "sent only if non-blank" left a prompt impossible to remove).
 */
export function settingsBody(v: SettingsText): { settings: { key: string; value: string }[] } {
  return { settings: Object.entries(v).map(([key, value]) => ({ key, value: value.trim() })) };
}

/** useSaveSettings saves settings through POST /api/admin/settings; every screen may show them, so everything refetches. */
export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: { values: SettingsText; idempotencyKey: string }) =>
      apiRequest<{ message: string }>("POST", "/api/admin/settings", settingsBody(values), { idempotencyKey }),
    onSuccess: () => invalidate(qc, "everything"),
  });
}

/** SettingsFormOptions: the block's resolver and defaults, how its values read from the stored settings, what is sent. */
export type SettingsFormOptions<T extends SettingsText> = {
  resolver: Resolver<T>;
  defaults: DefaultValues<T>;
  /** fromStored reads the block's values from GET /api/inventory's settings */
  fromStored: (stored: Record<string, string>) => T;
  /** toSent turns the validated values into what is saved (the default: as they are) */
  toSent?: (values: T) => SettingsText;
};

/**
 * useSettingsForm is the one form over stored settings (the /admin-system blocks that edit
 * settings keys): it starts from the defaults, takes the stored values as they arrive (what the
 * admin already typed survives them arriving or changing), saves with a fresh idempotency key
 * and toasts 'Settings saved successfully!' or 'Failed to save settings'.
 */
export function useSettingsForm<T extends SettingsText>({ resolver, defaults, fromStored, toSent }: SettingsFormOptions<T>) {
  const stored = useInventory().data?.settings;
  const save = useSaveSettings();
  const form = useForm<T>({
    resolver,
    defaultValues: defaults,
    values: stored ? fromStored(stored) : undefined,
    resetOptions: { keepDirtyValues: true, keepErrors: true },
  });
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { values: toSent ? toSent(values) : values, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (res) => toast({ title: res?.message || "Settings saved successfully!" }),
        onError: (e) => toastError(e, "Failed to save settings"),
      },
    ),
  );
  return { form, onSubmit, pending: save.isPending };
}
