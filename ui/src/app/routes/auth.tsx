import { Navigate } from "react-router";
import { AuthLoadingScreen, LoadingScreen } from "@/components/feedback/loading-screen";
import { paths } from "@/config/paths";
import { AuthPage } from "@/features/auth/components/auth-page";
import { useUser } from "@/lib/auth";

/** AuthRoute is /auth: the sign-in screen, or 'Redirecting...' and / for a signed-in user. */
export function AuthRoute() {
  const { data: user, isPending } = useUser();
  if (isPending) return <AuthLoadingScreen />;
  if (user) {
    return (
      <>
        <LoadingScreen text="Redirecting..." />
        <Navigate to={paths.home.path} replace />
      </>
    );
  }
  return <AuthPage />;
}
