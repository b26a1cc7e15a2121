import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { paths } from "@/config/paths";
import { type LoginInput, emailedCodeId, loginSchema, useLogin } from "@/features/auth/api/login";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/**
 * LoginForm is the Sign In tab: email and password, then / on success. When the server asks
 * for the code it emailed (an account with many failed sign-ins), the form adds the code's
 * field and sends it with the password.
 */
export function LoginForm() {
  const navigate = useNavigate();
  const [otpId, setOtpId] = React.useState("");
  const login = useLogin({
    onSuccess: (user) => {
      toast({ title: "Welcome back!", description: `Logged in as ${user.email}`, duration: 3000 });
      navigate(paths.home.path, { replace: true });
    },
    onError: (error) => {
      const asked = emailedCodeId(error);
      if (asked) {
        setOtpId(asked);
        toast({ title: "Check your email", description: errorMessage(error, "Enter the emailed sign-in code.") });
        return;
      }
      toast({ title: "Login failed", description: errorMessage(error, "Invalid email or password"), variant: "destructive" });
    },
  });
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "", code: "" } });

  const onSubmit = form.handleSubmit((values) => login.mutate(otpId ? { ...values, otpId } : { email: values.email, password: values.password }));

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <InputFormField control={form.control} name="email" label="Email" type="email" autoComplete="username" />
        <InputFormField control={form.control} name="password" label="Password" type="password" autoComplete="current-password" />
        {otpId && (
          <InputFormField control={form.control} name="code" label="Emailed sign-in code" inputMode="numeric" autoComplete="one-time-code" />
        )}
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? "Signing in..." : "Sign In"}
        </Button>
      </form>
    </Form>
  );
}
