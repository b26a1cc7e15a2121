import { WifiOffIcon } from "lucide-react";
import { MessageScreen } from "@/components/feedback/message-card";
import { Button } from "@/components/ui/button";

/** ConnectionIssue is shown when the auth check itself fails (spec part 2 §2). */
export function ConnectionIssue() {
  return (
    <MessageScreen
      icon={<WifiOffIcon aria-hidden className="text-destructive" />}
      title="Connection Issue"
      description="Unable to connect to the authentication service. Please check your internet connection and try refreshing the page."
    >
      <Button className="mx-auto" onClick={() => window.location.reload()}>
        Refresh Page
      </Button>
    </MessageScreen>
  );
}
