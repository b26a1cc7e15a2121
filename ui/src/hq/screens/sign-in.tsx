import { zodResolver } from "@hookform/resolvers/zod";
import { Building2Icon } from "lucide-react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { FormBody, SubmitButton } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { BrandScreen } from "@/components/feedback/brand-screen";
import { errorMessage } from "@/lib/api-client";
import { useLogin } from "@/hq/api";

/** signInSchema: both fields are required (the city's messages). */
export const signInSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, "Email is required")),
  password: z.string().check(z.minLength(1, "Password is required")),
});

type SignInValues = z.infer<typeof signInSchema>;

/** SignInPage is head office's sign-in: email and password; a refusal is said under the form in the server's words. */
export function SignInPage() {
  const login = useLogin();
  const form = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { email: "", password: "" } });
  const onSubmit = form.handleSubmit((values) => login.mutate(values));
  return (
    <BrandScreen icon={Building2Icon} title="SwapBay Head Office" description="Every city's stock, swaps, pay and packs">
      <FormBody
        form={form}
        onSubmit={onSubmit}
        className="grid gap-4"
        footer={
          <SubmitButton pending={login.isPending} pendingLabel="Signing in...">
            Sign In
          </SubmitButton>
        }
      >
        <InputFormField control={form.control} name="email" label="Email" type="email" autoComplete="username" />
        <InputFormField control={form.control} name="password" label="Password" type="password" autoComplete="current-password" />
        {login.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(login.error, "Sign-in failed. Please try again.")}
          </p>
        )}
      </FormBody>
    </BrandScreen>
  );
}
