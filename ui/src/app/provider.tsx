import { QueryClientProvider } from "@tanstack/react-query";
import * as React from "react";
import { ErrorBoundary } from "@/components/errors/error-boundary";
import { LoadingScreen } from "@/components/feedback/loading-screen";
import { useToast } from "@/hooks/use-toast";
import { Lazy, loadable } from "@/lib/loadable";
import { queryClient } from "@/lib/query-client";

// The toast UI (Radix toast) is its own chunk, fetched when the first toast is pushed: the
// sign-in screen's first load does not carry it (DESIGN.md §10).
const toaster = loadable(() => import("@/components/ui/toaster").then((m) => m.Toaster));

/** AppProvider holds the app-wide providers: error boundary, query client, toasts. */
export function AppProvider({ children }: { children: React.ReactNode }) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <React.Suspense fallback={<LoadingScreen />}>{children}</React.Suspense>
        <LazyToaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}

/** LazyToaster mounts the Toaster once any toast has been pushed, and keeps it mounted. */
function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = React.useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return <Lazy of={toaster} />;
}
