import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlusIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { CheckboxFormField } from "@/components/checkbox-form-field";
import { DialogFormFooter } from "@/components/dialog-form";
import { FormBody } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { SelectFormField } from "@/components/select-form-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { ROLE_OPTIONS, createUserSchema, useCreateUser, type CreateUserValues } from "@/features/users/api/user-actions";
import { newIdempotencyKey } from "@/lib/idempotency";
import type { Role } from "@/lib/user";

const EMPTY: CreateUserValues = { firstName: "", lastName: "", email: "", password: "", role: "driver", bypassTerms: false };

/**
 * CreateUserDialog is the Create User dialog (spec part 2 §2): names, email, role, password and
 * the bypass-terms checkbox meant for corporate liaisons. The account is created approved.
 * Only a master admin is offered the Master Admin role.
 */
export function CreateUserDialog({ callerRole }: { callerRole: Role | undefined }) {
  const [open, setOpen] = React.useState(false);
  const create = useCreateUser();
  const form = useForm<CreateUserValues>({ resolver: zodResolver(createUserSchema), defaultValues: EMPTY });
  const key = React.useRef<string | null>(null);
  const rootError = form.formState.errors.root?.message;
  const roles = ROLE_OPTIONS.filter((r) => r.value !== "master_admin" || callerRole === "master_admin");

  const onOpenChange = (next: boolean) => {
    if (create.isPending) return;
    if (next) {
      form.reset(EMPTY);
      key.current = null;
    }
    setOpen(next);
  };
  const onSubmit = form.handleSubmit((values) => {
    key.current ??= newIdempotencyKey(); // a retry after a failure creates the account once
    create.mutate({ ...values, idempotencyKey: key.current }, { onSuccess: () => setOpen(false) });
  });
  // a new value is a new request
  React.useEffect(() => {
    const sub = form.watch(() => {
      key.current = null;
      if (form.formState.errors.root) form.clearErrors("root");
    });
    return () => sub.unsubscribe();
  }, [form]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon aria-hidden /> Create User
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Create User</DialogTitle>
          <DialogDescription>The account is approved at once and can sign in with this email and password.</DialogDescription>
        </DialogHeader>
        <FormBody form={form} id="create-user-form" className="grid gap-3" onSubmit={onSubmit}>
          <div className="grid gap-3 sm:grid-cols-2">
            <InputFormField control={form.control} name="firstName" label="First Name" autoComplete="off" />
            <InputFormField control={form.control} name="lastName" label="Last Name" autoComplete="off" />
          </div>
          <InputFormField control={form.control} name="email" label="Email" type="email" autoComplete="off" />
          <InputFormField control={form.control} name="password" label="Password" type="password" autoComplete="new-password" />
          <SelectFormField control={form.control} name="role" label="Role" options={roles} />
          <CheckboxFormField
            control={form.control}
            name="bypassTerms"
            label="Bypass terms"
            description="For corporate liaisons: the account does not have to sign the contractor terms."
            className="flex items-start gap-3 rounded-md border p-3"
          />
          {rootError && (
            <p role="alert" className="text-sm text-destructive">
              {rootError}
            </p>
          )}
        </FormBody>
        <DialogFormFooter formId="create-user-form" pending={create.isPending} onCancel={() => onOpenChange(false)} spinnerLabel="Creating">
          Create User
        </DialogFormFooter>
      </DialogContent>
    </Dialog>
  );
}
