import { BatteryChargingIcon } from "lucide-react";
import { BrandScreen } from "@/components/feedback/brand-screen";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { LoginForm } from "@/features/auth/components/login-form";
import { RegisterForm } from "@/features/auth/components/register-form";
import { WaitingActions } from "@/features/auth/components/waiting-actions";

/** AuthPage is the sign-in screen with its Sign In and Register tabs. */
export function AuthPage() {
  return (
    <BrandScreen icon={BatteryChargingIcon} title="SwapBay" description="Battery swap operations">
      <WaitingActions />
      <Tabs defaultValue="login">
        <TabsList className="w-full">
          <TabsTrigger value="login">Sign In</TabsTrigger>
          <TabsTrigger value="register">Register</TabsTrigger>
        </TabsList>
        <TabsContent value="login" className="pt-4">
          <LoginForm />
        </TabsContent>
        <TabsContent value="register" className="pt-4">
          <RegisterForm />
        </TabsContent>
      </Tabs>
    </BrandScreen>
  );
}
