/** The longest `User-Agent` a session keeps (today's browsers send 100-200 characters). */
export const MAX_USER_AGENT_LENGTH = 256;

// Header values may hold tabs and obs-text; only printable ASCII and spaces are kept.
const UNPRINTABLE = /[^\x20-\x7e]+/g;

/**
 * A `User-Agent` header as a session records it: unprintable characters dropped, whitespace
 * collapsed, cut at {@link MAX_USER_AGENT_LENGTH}; null when nothing is left.
 * @example boundUserAgent("Mozilla/5.0 (X11; Linux x86_64) ...") // the same, at most 256 characters
 */
export function boundUserAgent(header: string | undefined): string | null {
  if (header === undefined) return null;
  const text = header
    .replace(UNPRINTABLE, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_USER_AGENT_LENGTH)
    .trim();
  return text === "" ? null : text;
}
