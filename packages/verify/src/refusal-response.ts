import type { Decision } from "./decision.js";
import { JSON_CONTENT_TYPE } from "./middleware-options.js";

/** A refusal as a web `Response` (for the fetch-based frameworks: h3, Hono). */
export function refusalResponse(refusal: Extract<Decision, { pass: false }>): Response {
  const headers = new Headers();
  headers.set(JSON_CONTENT_TYPE[0], JSON_CONTENT_TYPE[1]);
  for (const [name, value] of refusal.headers) headers.set(name, value);
  return new Response(refusal.body, { status: refusal.status, headers });
}
