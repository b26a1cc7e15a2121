import { Centered } from "@/components/feedback/centered";
import { Spinner } from "@/components/ui/spinner";

/** LoadingScreen is a full-screen spinner with a line of text and an optional hint. */
export function LoadingScreen({ text = "Loading...", hint }: { text?: string; hint?: string }) {
  return (
    <Centered>
      <div className="flex flex-col items-center gap-3 text-center">
        <Spinner className="size-8 text-primary" label={text} />
        <p className="text-sm font-medium">{text}</p>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </div>
    </Centered>
  );
}

/** AuthLoadingScreen is shown while the auth check runs (spec part 2 §2). */
export function AuthLoadingScreen() {
  return <LoadingScreen hint="If this takes too long, please refresh the page" />;
}
