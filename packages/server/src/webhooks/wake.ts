/** The dispatchers running in this process (one per app; tests run several). */
const listeners = new Set<() => void>();

/**
 * Asks this process's webhook dispatchers to look for due deliveries now rather than at their next
 * poll (at most a second away). Call it after committing a change that enqueued an event; it is
 * only a hint, so nothing is lost without it.
 */
export function wakeWebhooks(): void {
  for (const listener of listeners) listener();
}

/** Registers a dispatcher's wake-up; returns its removal. */
export function onWebhooksWake(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
