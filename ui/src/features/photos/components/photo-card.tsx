import type * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** PhotoCard is a photos card: a region named by its title (titleId), a description, then the content. */
export function PhotoCard({
  titleId,
  title,
  description,
  contentClassName,
  children,
}: {
  titleId: string;
  title: string;
  description: string;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
