import { FileQuestionIcon } from "lucide-react";
import { Link } from "react-router";
import { Centered } from "@/components/feedback/centered";
import { Button } from "@/components/ui/button";
import { MessageCard } from "@/components/feedback/message-card";
import { paths } from "@/config/paths";

/** NotFoundRoute is every unmatched path: '404 Page Not Found' with a developer hint. */
export function NotFoundRoute() {
  return (
    <Centered>
      <MessageCard
        icon={<FileQuestionIcon aria-hidden className="text-destructive" />}
        title="404 Page Not Found"
        description="Did you forget to add the page to the router?"
      >
        <Button asChild variant="outline" className="mx-auto">
          <Link to={paths.home.path}>Back to Home</Link>
        </Button>
      </MessageCard>
    </Centered>
  );
}
