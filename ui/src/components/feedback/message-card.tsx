import type * as React from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";
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

/** BackHomeMessage is a MessageCard for a page the user cannot have (not found, access denied): a red icon and Back to Home. */
export function BackHomeMessage({ icon: Icon, title, description }: { icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>; title: string; description: string }) {
  return (
    <MessageCard icon={<Icon aria-hidden className="text-destructive" />} title={title} description={description}>
      <Button asChild variant="outline" className="mx-auto">
        <Link to={paths.home.path}>Back to Home</Link>
      </Button>
    </MessageCard>
  );
}
