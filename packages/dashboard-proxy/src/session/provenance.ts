import type { H3Event } from "h3";
import type { ApiError } from "../http/errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD"]);
// `none`: typed in the address bar or a bookmark; `same-origin`: the dashboard's own page.
const SAME_ORIGIN_FETCH_SITES = new Set(["same-origin", "none"]);

const REFUSED: ApiError = {
  code: "FORBIDDEN",
  message: "Session routes answer only the dashboard's own pages",
};

/**
 * Whether a request may use the session cookie (session routes, the `/trpc` forward, chat): only the
 * dashboard's own page. Any method but GET/HEAD needs `Origin` equal to `PUBLIC_ORIGIN` (browsers send
 * it on every such request), so another site, even one in `ALLOWED_ORIGINS` or on the same site
 * (SameSite sends the cookie there), cannot act with it. A GET/HEAD may omit `Origin` (browsers do
 * on same-origin GETs), but then `Sec-Fetch-Site`, when sent, must say same-origin.
 * @returns the 403 to answer, or undefined when the request is the dashboard's.
 */
export function checkSessionProvenance(event: H3Event, publicOrigin: string): ApiError | undefined {
  const origin = event.req.headers.get("origin");
  if (origin !== null) return origin === publicOrigin ? undefined : REFUSED;
  if (!SAFE_METHODS.has(event.req.method)) return REFUSED;
  const site = event.req.headers.get("sec-fetch-site");
  return site === null || SAME_ORIGIN_FETCH_SITES.has(site) ? undefined : REFUSED;
}
