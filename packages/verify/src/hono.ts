// `@keyport/verify/hono`: Keyport's middleware for Hono (v4).
import type { Context, MiddlewareHandler } from "hono";
import { clientAddress } from "./client-address.js";
import { decide, type KeyportContext } from "./decision.js";
import { type KeyportOptions, prepare } from "./middleware-options.js";
import { readKey } from "./read-key.js";
import { refusalResponse } from "./refusal-response.js";

/** What `keyport()` adds to a Hono context: `c.get("keyport")`. */
export interface KeyportEnv {
  Variables: { keyport: KeyportContext };
}

/** The options of Hono's `keyport()`; `getKey` and `getIp` receive the context. */
export interface KeyportHonoOptions extends KeyportOptions<Context> {
  /**
   * The runtime's connection info (Hono's `getConnInfo` from `hono/bun`, `hono/deno`, ...: this is the
   * part of its `GetConnInfo` type the middleware reads), read for the client's address. Default: the Node.js request `@hono/node-server` hands the app (`c.env.incoming`).
   */
  getConnInfo?: (c: Context) => { remote: { address?: string | undefined } };
}

/**
 * The peer of a request served by `@hono/node-server`, read as its own `getConnInfo` reads it: from the
 * Node.js request in the app's bindings (`c.env.incoming`, or `c.env.server.incoming` under Vercel's
 * adapter); undefined on other runtimes.
 */
function nodePeer(c: Context): string | undefined {
  const env: unknown = c.env;
  const server: unknown = typeof env === "object" && env !== null ? Reflect.get(env, "server") : undefined;
  const bindings = typeof server === "object" && server !== null ? server : env;
  if (typeof bindings !== "object" || bindings === null) return undefined;
  const incoming: unknown = Reflect.get(bindings, "incoming");
  if (typeof incoming !== "object" || incoming === null) return undefined;
  const socket: unknown = Reflect.get(incoming, "socket");
  if (typeof socket !== "object" || socket === null) return undefined;
  const address: unknown = Reflect.get(socket, "remoteAddress");
  return typeof address === "string" ? address : undefined;
}

/**
 * Hono middleware that lets a request in only with a valid Keyport key, answering refusals itself (401,
 * 402 with `topUp`, 403, 429, 503) in Keyport's error envelope; the verification is `c.get("keyport")`. The client's address
 * (the peer, or with `trustProxy` the last `X-Forwarded-For` entry) is sent as `ip`.
 * @example
 * app.use("/api/*", keyport({ baseUrl: "https://keyport.example.com" }));
 * app.get("/api/data", (c) => c.json({ key: c.get("keyport") }));
 */
export function keyport(options: KeyportHonoOptions): MiddlewareHandler<KeyportEnv> {
  const { verifier, settings } = prepare(options);
  const { getKey, getIp, getConnInfo } = options;
  const peer = getConnInfo ? (c: Context) => getConnInfo(c).remote.address : nodePeer;
  return async (c, next) => {
    const key = getKey
      ? ((await getKey(c)) ?? undefined)
      : readKey(c.req.header("authorization"), c.req.header("x-api-key"));
    const ip = getIp
      ? (getIp(c) ?? undefined)
      : clientAddress(peer(c), c.req.header("x-forwarded-for"), settings.trustProxy);
    const request = settings.topUp
      ? { url: c.req.url, payment: c.req.header("payment-signature") }
      : undefined;
    const decision = await decide(verifier, key, settings, ip, request, options.ratelimits?.(c));
    if (!decision.pass) {
      return refusalResponse(decision);
    }
    c.set("keyport", decision.context);
    for (const [name, value] of decision.headers) c.header(name, value);
    await next();
  };
}

export type { KeyportContext } from "./decision.js";
