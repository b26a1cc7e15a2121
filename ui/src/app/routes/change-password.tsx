import { ChangePasswordPage } from "@/features/account/components/change-password-page";

/** ChangePasswordRoute is /change-password. */
export function ChangePasswordRoute() {
  return <ChangePasswordPage />;
}
