import { useSyncExternalStore } from "react";

/** A short confirmation after a change ("Key “ci” revoked."). */
export interface Toast {
  id: number;
  message: string;
}

/** How long a toast stays before it dismisses itself. */
export const TOAST_MS = 6_000;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Removes one toast (its close button, or its timer). */
export function dismissToast(id: number): void {
  publish(toasts.filter((toast) => toast.id !== id));
}

/** Shows `message` in the page's toast region; it goes after `TOAST_MS` or when dismissed. */
export function showToast(message: string): void {
  const id = nextId++;
  // At most three at once: a burst of changes keeps the newest.
  publish([...toasts.slice(-2), { id, message }]);
  setTimeout(() => dismissToast(id), TOAST_MS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts shown now, oldest first. */
export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => toasts);
}
