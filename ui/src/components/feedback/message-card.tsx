import type * as React from "react";
import { Link } from "react-router";
import { Centered } from "@/components/feedback/centered";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { cn } from "@/lib/utils";

/** MessageCardProps: the card's icon, h1 title and text, its actions, the card's class. */
export type MessageCardProps = {
  icon: React.ReactNode;
  title: string;
  description: React.ReactNode;
  children?: React.ReactNode;
  className?: string;
};

/**
 * MessageCard is the centred card of the app's state screens (connection issue, blocked
 * account, not found, access denied, application error): icon, h1 title, text, actions.
 */
export function MessageCard({ icon, title, description, children, className }: MessageCardProps) {
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

/** MessageScreen is a MessageCard alone on the screen, outside the app's shell (connection issue, blocked account, application error). */
export function MessageScreen(props: MessageCardProps) {
  return (
    <Centered>
      <MessageCard {...props} />
    </Centered>
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
