import { BatteryChargingIcon } from "lucide-react";
import { Centered } from "@/components/feedback/centered";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { LoginForm } from "@/features/auth/components/login-form";
import { RegisterForm } from "@/features/auth/components/register-form";
import { WaitingActions } from "@/features/auth/components/waiting-actions";

/** AuthPage is the sign-in screen with its Sign In and Register tabs. */
export function AuthPage() {
  return (
    <Centered className="items-start sm:items-center">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <BatteryChargingIcon aria-hidden className="mx-auto size-10 text-primary" />
          <CardTitle asChild className="text-2xl">
            <h1>SwapBay</h1>
          </CardTitle>
          <CardDescription>Battery swap operations</CardDescription>
        </CardHeader>
        <CardContent>
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
        </CardContent>
      </Card>
    </Centered>
  );
}
