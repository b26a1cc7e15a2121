import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { DialogFormFooter } from "@/components/dialog-form";
import { FormBody } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { SelectFormField } from "@/components/select-form-field";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import type { AdminUser } from "@/features/users/api/get-users";
import {
  ROLE_OPTIONS,
  changedFields,
  clampPercent,
  editUserSchema,
  editValues,
  useUpdateUser,
  type EditUserValues,
} from "@/features/users/api/user-actions";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { displayName, type Role } from "@/lib/user";

/**
 * EditUserDialog edits one account (spec part 2 §2): it sends only the fields that changed; a
 * blank password keeps the old one; the pay reduction is clamped to 0-100 as it is typed.
 * user null means closed. Only a master admin is offered the Master Admin role.
 */
export function EditUserDialog({ user, callerRole, onClose }: { user: AdminUser | null; callerRole: Role | undefined; onClose: () => void }) {
  const update = useUpdateUser();
  return (
    <Dialog open={user !== null} onOpenChange={(o) => !o && !update.isPending && onClose()}>
      {user && <EditUserContent key={user.id} user={user} callerRole={callerRole} update={update} onClose={onClose} />}
    </Dialog>
  );
}

function EditUserContent({
  user,
  callerRole,
  update,
  onClose,
}: {
  user: AdminUser;
  callerRole: Role | undefined;
  update: ReturnType<typeof useUpdateUser>;
  onClose: () => void;
}) {
  const form = useForm<EditUserValues, unknown, z.output<typeof editUserSchema>>({
    resolver: zodResolver(editUserSchema),
    defaultValues: editValues(user),
  });
  const roles = ROLE_OPTIONS.filter((r) => r.value !== "master_admin" || callerRole === "master_admin" || user.role === "master_admin");
  const onSubmit = form.handleSubmit((values) => {
    const changes = changedFields(user, values);
    if (Object.keys(changes).length === 0) {
      toast({ title: "No changes to save" });
      onClose();
      return;
    }
    update.mutate({ id: user.id, changes, idempotencyKey: newIdempotencyKey() }, { onSuccess: onClose });
  });

  return (
    <DialogContent className="max-h-[90dvh] overflow-y-auto">
      <DialogHeader>
        <DialogTitle>Edit User</DialogTitle>
        <DialogDescription>{displayName(user)}: only the fields you change are saved.</DialogDescription>
      </DialogHeader>
      <FormBody form={form} id="edit-user-form" className="grid gap-3" onSubmit={onSubmit}>
        <div className="grid gap-3 sm:grid-cols-2">
          <InputFormField control={form.control} name="firstName" label="First Name" />
          <InputFormField control={form.control} name="lastName" label="Last Name" />
        </div>
        <InputFormField control={form.control} name="email" label="Email" type="email" autoComplete="off" />
        <InputFormField
          control={form.control}
          name="password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          description="Leave blank to keep the current password."
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectFormField control={form.control} name="role" label="Role" options={roles} />
          <FormField
            control={form.control}
            name="payReductionPercentage"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Pay Reduction (%)</FormLabel>
                <FormControl>
                  <Input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={100}
                    step={1}
                    {...field}
                    onChange={(e) => field.onChange(clampPercent(e.target.value))}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
      </FormBody>
      <DialogFormFooter formId="edit-user-form" pending={update.isPending} onCancel={onClose} spinnerLabel="Saving">
        Save Changes
      </DialogFormFooter>
    </DialogContent>
  );
}
