import { useEffect, useRef, useSyncExternalStore } from "react";
import { isUnauthorized } from "./errors";
import type { Session } from "./session-api";

// The session that ended under the user (a 401 while signed in), until they sign in again or leave.
let ended: Session | null = null;
const listeners = new Set<() => void>();

function publish(next: Session | null): void {
  ended = next;
  for (const listener of listeners) listener();
}

/** Remembers that `session` ended by itself (expired, signed out elsewhere), not by "Sign out". */
export function rememberEndedSession(session: Session): void {
  publish(session);
}

/** Forgets it: signed in again, signed out, or the user left the kept page. */
export function clearEndedSession(): void {
  if (ended !== null) publish(null);
}

/** The ended session, read outside React. */
export function endedSession(): Session | null {
  return ended;
}

/** The ended session for a component: the page it had stays on screen under the sign-in dialog. */
export function useEndedSession(): Session | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => ended,
  );
}

/**
 * Forgets a form's 401 once the session is back: when the ended session clears (signed in again, same
 * wallet, page kept), `reset` runs if `error` is unauthorized, so "A valid session token is required"
 * does not stay under a form the user can now submit. Pass the mutation's `error` and `reset`.
 */
export function useResetSessionErrorOnReturn(error: unknown, reset: () => void): void {
  const ended = useEndedSession();
  const wasEnded = useRef(false);
  useEffect(() => {
    if (ended !== null) {
      wasEnded.current = true;
      return;
    }
    if (!wasEnded.current) return;
    wasEnded.current = false;
    if (isUnauthorized(error)) reset();
  }, [ended, error, reset]);
}
