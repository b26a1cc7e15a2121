import * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

/** FormCardProps: the card's heading and its content (usually a form and its confirm dialog). */
export type FormCardProps = {
  /** icon is shown before the title (lucide-react). */
  icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  iconClassName?: string;
  title: React.ReactNode;
  description?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
};

/**
 * FormCard is the card every operations form sits in: a region named by its title (with an
 * icon), an optional description, then the content.
 */
export function FormCard({ icon: Icon, iconClassName, title, description, className, children }: FormCardProps) {
  const id = React.useId();
  return (
    <Card role="region" aria-labelledby={`${id}-title`} className={className}>
      <CardHeader>
        <CardTitle id={`${id}-title`} className="flex items-center gap-2">
          <Icon aria-hidden className={cn("size-5 text-primary", iconClassName)} />
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
