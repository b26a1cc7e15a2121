import type * as React from "react";
import { Centered } from "@/components/feedback/centered";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * BrandScreen is a screen outside the app's shell (a sign-in): one centred card (at the top on
 * a phone) headed by the product's icon, the h1 title and a line under it, then children.
 */
export function BrandScreen({
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
