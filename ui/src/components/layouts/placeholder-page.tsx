import { ConstructionIcon } from "lucide-react";
import { PageHeader } from "@/components/layouts/app-shell";
import { Card, CardContent } from "@/components/ui/card";

/** PlaceholderPage stands in for a screen that is not built yet. */
export function PlaceholderPage({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Card>
        <CardContent className="flex items-center gap-3 text-muted-foreground">
          <ConstructionIcon aria-hidden className="size-5" />
          <p>This screen is coming soon.</p>
        </CardContent>
      </Card>
    </>
  );
}
