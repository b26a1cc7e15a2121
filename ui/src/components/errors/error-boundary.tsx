import * as React from "react";
import { ApplicationError } from "@/components/errors/application-error";
import { logError } from "@/lib/error-log";

type State = { error: unknown; componentStack: string | null; hasError: boolean };

/**
 * ErrorBoundary catches render errors below it, keeps them for /mobile-debug and shows the
 * Application Error screen; Try Again re-renders the children.
 */
export class ErrorBoundary extends React.Component<{ children: React.ReactNode }, State> {
  state: State = { error: null, componentStack: null, hasError: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  componentDidCatch(error: unknown, info: React.ErrorInfo) {
    this.setState({ componentStack: info.componentStack ?? null });
    logError(error, "error boundary");
  }

  reset = () => this.setState({ error: null, componentStack: null, hasError: false });

  render() {
    if (this.state.hasError) {
      return <ApplicationError error={this.state.error} componentStack={this.state.componentStack} onReset={this.reset} />;
    }
    return this.props.children;
  }
}
