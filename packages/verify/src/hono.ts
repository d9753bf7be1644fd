// `@keyport/verify/hono`: Keyport's middleware for Hono (v4).
import type { Context, MiddlewareHandler } from "hono";
import { decide, type KeyportContext } from "./decision.js";
import { type KeyportOptions, prepare } from "./middleware-options.js";
import { readKey } from "./read-key.js";
import { refusalResponse } from "./refusal-response.js";

/** What `keyport()` adds to a Hono context: `c.get("keyport")`. */
export interface KeyportEnv {
  Variables: { keyport: KeyportContext };
}

/** The options of Hono's `keyport()`; `getKey` receives the context. */
export type KeyportHonoOptions = KeyportOptions<Context>;

/**
 * Hono middleware that lets a request in only with a valid Keyport key, answering refusals itself (401,
 * 402 with `topUp`, 403, 429, 503) in Keyport's error envelope; the verification is `c.get("keyport")`.
 * @example
 * app.use("/api/*", keyport({ baseUrl: "https://keyport.example.com" }));
 * app.get("/api/data", (c) => c.json({ key: c.get("keyport") }));
 */
export function keyport(options: KeyportHonoOptions): MiddlewareHandler<KeyportEnv> {
  const { verifier, settings } = prepare(options);
  const { getKey } = options;
  return async (c, next) => {
    const key = getKey
      ? ((await getKey(c)) ?? undefined)
      : readKey(c.req.header("authorization"), c.req.header("x-api-key"));
    const request = settings.topUp
      ? { url: c.req.url, payment: c.req.header("payment-signature") }
      : undefined;
    const decision = await decide(verifier, key, settings, request);
    if (!decision.pass) {
      return refusalResponse(decision);
    }
    c.set("keyport", decision.context);
    for (const [name, value] of decision.headers) c.header(name, value);
    await next();
  };
}

export type { KeyportContext } from "./decision.js";
