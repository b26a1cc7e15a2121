import { FileQuestionIcon } from "lucide-react";
import { Link } from "react-router";
import { Centered } from "@/components/feedback/centered";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";

/** NotFoundRoute is every unmatched path: '404 Page Not Found' with a developer hint. */
export function NotFoundRoute() {
  return (
    <Centered>
      <Card className="w-full max-w-md">
        <CardHeader>
          <div className="flex items-center gap-2">
            <FileQuestionIcon aria-hidden className="size-8 text-destructive" />
            <CardTitle asChild className="text-2xl">
              <h1>404 Page Not Found</h1>
            </CardTitle>
          </div>
          <CardDescription>Did you forget to add the page to the router?</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="outline">
            <Link to={paths.home.path}>Back to Home</Link>
          </Button>
        </CardContent>
      </Card>
    </Centered>
  );
}
