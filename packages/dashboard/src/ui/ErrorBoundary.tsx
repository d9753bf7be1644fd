import { Component, type ReactNode } from "react";
import { ErrorMessage } from "./Status";

/**
 * Catches a render error or a lazy chunk that failed to load, so the page shows a message and a way
 * back instead of going blank.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    // Navigating elsewhere gives the next view a fresh start.
    if (previous.resetKey !== this.props.resetKey && this.state.error !== null)
      this.setState({ error: null });
  }

  override render() {
    if (this.state.error !== null) {
      return <ErrorMessage error={this.state.error} onRetry={() => window.location.reload()} />;
    }
    return this.props.children;
  }
}
