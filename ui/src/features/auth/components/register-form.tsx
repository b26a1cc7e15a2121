import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { paths } from "@/config/paths";
import { REQUIRED_FIELDS_TITLE, type RegisterInput, registerSchema, registrationError, useRegister } from "@/features/auth/api/register";
import type { GivenSignature } from "@/features/auth/components/terms-modal";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { Lazy, loadable } from "@/lib/loadable";

// The terms modal brings DOMPurify and the signature pad: loaded when it first opens, so the
// sign-in screen's first load stays small (ui/BUNDLE.md).
const termsModal = loadable(() => import("@/features/auth/components/terms-modal").then((m) => m.TermsModal));

const EMPTY: RegisterInput = { firstName: "", lastName: "", email: "", password: "" };

/**
 * RegisterForm is the Register tab: the basic fields, then the terms modal, then the
 * register call with the signature (spec part 1 §4).
 */
export function RegisterForm() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  // the validated form data waiting for the terms; cancelling the modal discards it
  const [pendingData, setPendingData] = useState<RegisterInput | null>(null);
  const registration = useRegister({
    onSuccess: (user) => {
      setPendingData(null);
      if (user.isApproved === "pending") {
        toast({ title: "Registration successful! Your account is pending admin approval." });
      } else {
        toast({ title: "Welcome!", description: `Your account is ready, ${user.firstName || user.email}.` });
      }
      navigate(paths.home.path, { replace: true });
    },
    onError: (error) => {
      setPendingData(null);
      // the terms may have changed while the registrant signed (409): the modal shows the new
      // ones. Imported here, not above: the guest's first screen stays within its budget
      // (first-screen-guard.spec), and this runs only after a failed registration.
      void import("@/lib/invalidation").then(({ invalidate }) => invalidate(qc, "terms")).catch(() => undefined);
      toast({ title: "Registration failed", description: errorMessage(error, "Unable to create account"), variant: "destructive" });
    },
  });
  const form = useForm<RegisterInput>({ resolver: zodResolver(registerSchema), defaultValues: EMPTY });

  // valid: the trimmed values wait for the terms; invalid: the spec's one Required Fields toast
  const onSubmit = form.handleSubmit(setPendingData, (errors) => {
    const problem = registrationError(errors);
    if (problem) toast({ title: REQUIRED_FIELDS_TITLE, description: problem, variant: "destructive" });
  });

  const onAccept = (signature: GivenSignature) => {
    if (!pendingData) return;
    registration.mutate({ ...pendingData, acceptedTerms: true, ...signature });
  };

  return (
    <>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid grid-cols-2 gap-3">
            <InputFormField control={form.control} name="firstName" label="First Name" autoComplete="given-name" maxLength={100} />
            <InputFormField control={form.control} name="lastName" label="Last Name" autoComplete="family-name" maxLength={100} />
          </div>
          <InputFormField control={form.control} name="email" label="Email" type="email" autoComplete="username" />
          <InputFormField control={form.control} name="password" label="Password" type="password" autoComplete="new-password" />
          <p className="rounded-md bg-muted p-3 text-xs text-muted-foreground">
            Next you will be asked to read and accept the Terms and Conditions, give your digital signature and complete the
            agreement. Your account needs admin approval before you get full access.
          </p>
          <Button type="submit">Continue to Terms</Button>
        </form>
      </Form>
      {pendingData !== null && (
        <Lazy of={termsModal} open submitting={registration.isPending} onCancel={() => setPendingData(null)} onAccept={onAccept} />
      )}
    </>
  );
}
