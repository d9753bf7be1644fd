// `@keyport/verify/h3`: Keyport's middleware for h3 (v2).
import { getRequestIP, type H3Event, type Middleware } from "h3";
import { clientAddress } from "./client-address.js";
import { decide, type KeyportContext } from "./decision.js";
import { type KeyportOptions, prepare } from "./middleware-options.js";
import { readKey } from "./read-key.js";
import { refusalResponse } from "./refusal-response.js";

declare module "h3" {
  interface H3EventContext {
    /** The key's verification, set by `keyport()` for every request it lets through. */
    keyport?: KeyportContext;
  }
}

/** The options of h3's `keyport()`; `getKey` receives the event. */
export type KeyportH3Options = KeyportOptions<H3Event>;

/**
 * h3 middleware that lets a request in only with a valid Keyport key, answering refusals itself (401,
 * 402 with `topUp`, 403, 429, 503) in Keyport's error envelope; the verification is in `event.context.keyport`. The client's
 * address (the peer, or with `trustProxy` the last `X-Forwarded-For` entry) is sent as `ip`.
 * @example
 * app.use(keyport({ baseUrl: "https://keyport.example.com" }));
 * app.get("/data", (event) => ({ wallet: event.context.keyport?.valid && event.context.keyport.wallet }));
 */
export function keyport(options: KeyportH3Options): Middleware {
  const { verifier, settings } = prepare(options);
  const { getKey, getIp } = options;
  return async (event) => {
    const key = getKey
      ? ((await getKey(event)) ?? undefined)
      : readKey(event.req.headers.get("authorization"), event.req.headers.get("x-api-key"));
    // h3's peer (the runtime's client address) without its X-Forwarded-For reading, which takes the first entry.
    const ip = getIp
      ? (getIp(event) ?? undefined)
      : clientAddress(getRequestIP(event), event.req.headers.get("x-forwarded-for"), settings.trustProxy);
    const request = settings.topUp
      ? { url: event.req.url, payment: event.req.headers.get("payment-signature") ?? undefined }
      : undefined;
    const decision = await decide(verifier, key, settings, ip, request, options.ratelimits?.(event));
    if (!decision.pass) {
      return refusalResponse(decision);
    }
    event.context.keyport = decision.context;
    for (const [name, value] of decision.headers) event.res.headers.set(name, value);
    return undefined;
  };
}

export type { KeyportContext } from "./decision.js";
