import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeftIcon } from "lucide-react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { FormBody, SubmitButton } from "@/components/form-body";
import { Button } from "@/components/ui/button";
import { InputFormField } from "@/components/form-fields";
import { PasswordInput } from "@/components/password-input";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { type ChangePasswordInput, changePasswordSchema, useChangePassword } from "@/features/account/api/change-password";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { useUser } from "@/lib/auth";
import { isLiaisonRole } from "@/lib/user";

/** backPath is where Cancel and back go: /liaison-console for the liaison, else / (spec part 2 §2). */
export function backPath(role: string | undefined): string {
  return isLiaisonRole(role) ? paths.liaisonConsole.path : paths.home.path;
}

const PASSWORD_FIELDS = [
  { name: "currentPassword", label: "Current Password", autoComplete: "current-password" },
  { name: "newPassword", label: "New Password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirm New Password", autoComplete: "new-password" },
] as const;

/** ChangePasswordPage is /change-password: current, new and confirm, each with show/hide. */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  const { data: user } = useUser();
  const change = useChangePassword();
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });
  const back = () => navigate(backPath(user?.role));

  const onSubmit = form.handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => {
        toast({ title: "Password Changed", description: "Your password has been successfully updated." });
        form.reset();
        back();
      },
      onError: (error) =>
        toast({
          title: "Password Change Failed",
          description: errorMessage(error, "Failed to change password. Please try again."),
          variant: "destructive",
        }),
    }),
  );

  const footer = (
    <div className="flex justify-end gap-2">
      <Button type="button" variant="outline" onClick={back} disabled={change.isPending}>
        Cancel
      </Button>
      <SubmitButton pending={change.isPending} pendingLabel="Changing...">
        Change Password
      </SubmitButton>
    </div>
  );
  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <Button variant="ghost" size="sm" className="mb-2 w-fit" onClick={back}>
          <ArrowLeftIcon /> Back
        </Button>
        <CardTitle asChild className="text-xl">
          <h1>Change Password</h1>
        </CardTitle>
        <CardDescription>Enter your current password and choose a new one (at least 6 characters).</CardDescription>
      </CardHeader>
      <CardContent>
        <FormBody form={form} onSubmit={onSubmit} className="grid gap-4" footer={footer}>
          {/* the account the new password belongs to, for password managers (never sent) */}
          <input type="email" name="username" autoComplete="username" value={user?.email ?? ""} readOnly hidden />
          {PASSWORD_FIELDS.map((f) => (
            <InputFormField
              key={f.name}
              control={form.control}
              name={f.name}
              label={f.label}
              autoComplete={f.autoComplete}
              input={(props) => <PasswordInput {...props} toggleLabel={f.label} />}
            />
          ))}
        </FormBody>
      </CardContent>
    </Card>
  );
}
