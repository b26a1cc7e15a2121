import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { InputFormField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { paths } from "@/config/paths";
import { type LoginInput, loginSchema, useLogin } from "@/features/auth/api/login";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/** LoginForm is the Sign In tab: email and password, then / on success. */
export function LoginForm() {
  const navigate = useNavigate();
  const login = useLogin({
    onSuccess: (user) => {
      toast({ title: "Welcome back!", description: `Logged in as ${user.email}`, duration: 3000 });
      navigate(paths.home.path, { replace: true });
    },
    onError: (error) =>
      toast({ title: "Login failed", description: errorMessage(error, "Invalid email or password"), variant: "destructive" }),
  });
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });

  const onSubmit = form.handleSubmit((values) => login.mutate(values));

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <InputFormField control={form.control} name="email" label="Email" type="email" autoComplete="username" />
        <InputFormField control={form.control} name="password" label="Password" type="password" autoComplete="current-password" />
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? "Signing in..." : "Sign In"}
        </Button>
      </form>
    </Form>
  );
}
