import { useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { paths } from "@/config/paths";
import { REQUIRED_FIELDS_TITLE, type RegisterInput, registrationError, useRegister } from "@/features/auth/api/register";
import { TermsModal } from "@/features/auth/components/terms-modal";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

const EMPTY: RegisterInput = { firstName: "", lastName: "", email: "", password: "" };

/**
 * RegisterForm is the Register tab: the basic fields, then the terms modal, then the
 * register call with the signature (spec part 1 §4).
 */
export function RegisterForm() {
  const navigate = useNavigate();
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
      toast({ title: "Registration failed", description: errorMessage(error, "Unable to create account"), variant: "destructive" });
    },
  });
  const form = useForm<RegisterInput>({ defaultValues: EMPTY });

  const onSubmit = form.handleSubmit((values) => {
    const problem = registrationError(values);
    if (problem) {
      toast({ title: REQUIRED_FIELDS_TITLE, description: problem, variant: "destructive" });
      return;
    }
    setPendingData({ ...values, firstName: values.firstName.trim(), lastName: values.lastName.trim(), email: values.email.trim() });
  });

  const onAccept = (signatureData: string) => {
    if (!pendingData) return;
    registration.mutate({ ...pendingData, acceptedTerms: true, signatureData });
  };

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <div className="grid grid-cols-2 gap-3">
          <div className="grid gap-2">
            <Label htmlFor="register-first-name">First Name</Label>
            <Input id="register-first-name" autoComplete="given-name" maxLength={100} {...form.register("firstName")} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="register-last-name">Last Name</Label>
            <Input id="register-last-name" autoComplete="family-name" maxLength={100} {...form.register("lastName")} />
          </div>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="register-email">Email</Label>
          <Input id="register-email" type="email" autoComplete="email" {...form.register("email")} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="register-password">Password</Label>
          <Input id="register-password" type="password" autoComplete="new-password" {...form.register("password")} />
        </div>
        <p className="rounded-md bg-muted p-3 text-xs text-muted-foreground">
          Next you will be asked to read and accept the Terms and Conditions, give your digital signature and complete the
          agreement. Your account needs admin approval before you get full access.
        </p>
        <Button type="submit">Continue to Terms</Button>
      </form>
      <TermsModal
        open={pendingData !== null}
        submitting={registration.isPending}
        onCancel={() => setPendingData(null)}
        onAccept={onAccept}
      />
    </>
  );
}
