import { WifiOffIcon } from "lucide-react";
import { Centered } from "@/components/feedback/centered";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** ConnectionIssue is shown when the auth check itself fails (spec part 2 §2). */
export function ConnectionIssue() {
  return (
    <Centered>
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <WifiOffIcon aria-hidden className="mx-auto size-10 text-destructive" />
          <CardTitle asChild className="text-xl">
            <h1>Connection Issue</h1>
          </CardTitle>
          <CardDescription>
            Unable to connect to the authentication service. Please check your internet connection and try refreshing the page.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button onClick={() => window.location.reload()}>Refresh Page</Button>
        </CardContent>
      </Card>
    </Centered>
  );
}
