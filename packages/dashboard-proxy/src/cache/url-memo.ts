import type { H3Event } from "h3";

/**
 * Remembers what `compute` made of a request URL (path and query string exactly as received), so
 * a repeated URL skips the query parse, the zod validation and the upstream request building: on
 * a cached hit those were the largest share of the proxy's own CPU. Only results `keep` accepts are
 * remembered (refusals are not: junk URLs must not push out good ones). `compute` must depend on
 * nothing but the URL. At most `max` URLs are kept; past it the oldest goes first.
 * @example const plan = memoizeByUrl((event) => parse(event), (call) => !("code" in call), 1_000);
 */
export function memoizeByUrl<T>(
  compute: (event: H3Event) => T,
  keep: (result: T) => boolean,
  max: number,
): (event: H3Event) => T {
  const results = new Map<string, T>();
  return (event) => {
    // Node's request target as it came (a string the parser made already); elsewhere the URL's parts.
    const key = event.runtime?.node?.req.url ?? event.url.pathname + event.url.search;
    const known = results.get(key);
    if (known !== undefined) return known;
    const result = compute(event);
    if (keep(result)) {
      if (results.size >= max) {
        const oldest = results.keys().next();
        if (oldest.done !== true) results.delete(oldest.value);
      }
      results.set(key, result);
    }
    return result;
  };
}
