import { AlertTriangleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { MessageScreen } from "@/components/feedback/message-card";
import { paths } from "@/config/paths";

/** ApplicationErrorProps: the error, the React component stack when known, and a reset. */
export type ApplicationErrorProps = {
  error: unknown;
  componentStack?: string | null;
  onReset?: () => void;
};

/**
 * ApplicationError is the 'Application Error' screen (spec part 1 §2): Refresh Page,
 * Debug Info (→ /mobile-debug), Try Again (clears the error) and Technical Details.
 */
export function ApplicationError({ error, componentStack, onReset }: ApplicationErrorProps) {
  const err = error instanceof Error ? error : new Error(String(error));
  return (
    <MessageScreen
      className="max-w-lg"
      icon={<AlertTriangleIcon aria-hidden className="text-destructive" />}
      title="Application Error"
      description="Something went wrong. This might be a temporary issue with your device or connection."
    >
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={() => window.location.reload()}>Refresh Page</Button>
        <Button variant="outline" onClick={() => window.location.assign(paths.mobileDebug.path)}>
          Debug Info
        </Button>
        <Button variant="secondary" onClick={onReset}>
          Try Again
        </Button>
      </div>
      <details className="rounded-md border bg-muted/50 p-3 text-left text-xs">
        <summary className="cursor-pointer font-medium">Technical Details</summary>
        <dl className="mt-2 grid gap-2">
          <dt className="font-semibold">Error</dt>
          <dd className="break-words">{err.message}</dd>
          {err.stack && (
            <>
              <dt className="font-semibold">Stack</dt>
              <dd>
                <pre className="max-h-48 overflow-auto whitespace-pre-wrap">{err.stack}</pre>
              </dd>
            </>
          )}
          {componentStack && (
            <>
              <dt className="font-semibold">Component Stack</dt>
              <dd>
                <pre className="max-h-48 overflow-auto whitespace-pre-wrap">{componentStack}</pre>
              </dd>
            </>
          )}
        </dl>
      </details>
    </MessageScreen>
  );
}
