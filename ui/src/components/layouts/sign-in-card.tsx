import type * as React from "react";
import { Centered } from "@/components/feedback/centered";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * SignInCard is a sign-in screen: one card in the middle of the screen (at its top on a
 * phone), the app's icon and name as the page's h1 over a line about it, then the forms.
 */
export function SignInCard({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  title: string;
  description: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Centered className="items-start sm:items-center">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <Icon aria-hidden className="mx-auto size-10 text-primary" />
          <CardTitle asChild className="text-2xl">
            <h1>{title}</h1>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </Centered>
  );
}
