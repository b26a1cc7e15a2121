import * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

/**
 * MessageCard is the centred card of the app's state screens (connection issue, blocked
 * account, not found, access denied, application error): icon, h1 title, text, actions.
 */
export function MessageCard({
  icon,
  title,
  description,
  children,
  className,
}: {
  icon: React.ReactNode;
  title: string;
  description: React.ReactNode;
  children?: React.ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn("mx-auto w-full max-w-md text-center", className)}>
      <CardHeader>
        <div className="mx-auto [&_svg]:size-10">{icon}</div>
        <CardTitle asChild className="text-xl">
          <h1>{title}</h1>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      {children && <CardContent className="flex flex-col gap-4">{children}</CardContent>}
    </Card>
  );
}
