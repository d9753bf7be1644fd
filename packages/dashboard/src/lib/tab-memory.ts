import type { z } from "zod";

// Every entry of the page's tab memory starts with this, so signing out can forget them all.
const PREFIX = "keyport:";

/**
 * Reads what the page kept for this tab (sessionStorage: the tab's life, never other tabs, never
 * after it closes), checked with `schema`; undefined when nothing valid is kept or storage is off.
 */
export function readTabMemory<T extends z.ZodType>(key: string, schema: T): z.output<T> | undefined {
  try {
    const text = window.sessionStorage.getItem(PREFIX + key);
    if (text === null) return undefined;
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `value` (as JSON) for this tab; a full or disabled storage keeps nothing, silently. */
export function writeTabMemory(key: string, value: unknown): void {
  try {
    window.sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the page works without its memory.
  }
}

/** Forgets one entry, or every entry of the page when `key` is not given (signing out). */
export function forgetTabMemory(key?: string): void {
  try {
    if (key !== undefined) {
      window.sessionStorage.removeItem(PREFIX + key);
      return;
    }
    for (const name of Object.keys(window.sessionStorage)) {
      if (name.startsWith(PREFIX)) window.sessionStorage.removeItem(name);
    }
  } catch {
    // Nothing kept, nothing to forget.
  }
}
