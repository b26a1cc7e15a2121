import { FileQuestionIcon } from "lucide-react";
import { Centered } from "@/components/feedback/centered";
import { BackHomeMessage } from "@/components/feedback/message-card";

/** NotFoundRoute is every unmatched path: '404 Page Not Found' with a developer hint. */
export function NotFoundRoute() {
  return (
    <Centered>
      <BackHomeMessage icon={FileQuestionIcon} title="404 Page Not Found" description="Did you forget to add the page to the router?" />
    </Centered>
  );
}
