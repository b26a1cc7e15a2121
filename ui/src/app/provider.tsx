import { QueryClientProvider } from "@tanstack/react-query";
import * as React from "react";
import { ErrorBoundary } from "@/components/errors/error-boundary";
import { LoadingScreen } from "@/components/feedback/loading-screen";
import { Toaster } from "@/components/ui/toaster";
import { TooltipProvider } from "@/components/ui/tooltip";
import { queryClient } from "@/lib/query-client";

/** AppProvider holds the app-wide providers: error boundary, query client, tooltips, toasts. */
export function AppProvider({ children }: { children: React.ReactNode }) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <React.Suspense fallback={<LoadingScreen />}>{children}</React.Suspense>
          <Toaster />
        </TooltipProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
