/**
 * Where a leak was found, as a link target: only an absolute http(s) URL (the URL parser normalises
 * case, tabs and newlines, so `JaVa\tScript:` is refused like `javascript:`); anything else is null
 * and shown as text.
 */
export function leakHref(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
}
