const ALLOWED_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * The link target if it is an absolute http(s) or mailto URL, else null. The URL parser normalises
 * case, tabs and newlines first, so `JaVa\tScript:` is recognised and refused like `javascript:`.
 */
export function safeHref(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : null;
}
