// `@keyport/verify/express`: Keyport's middleware for Express (4 and 5).
import type { Request, RequestHandler } from "express";
import { clientAddress } from "./client-address.js";
import { decide, type KeyportContext } from "./decision.js";
import { JSON_CONTENT_TYPE, type KeyportOptions, prepare } from "./middleware-options.js";
import { readKey } from "./read-key.js";

declare global {
  namespace Express {
    interface Request {
      /** The key's verification, set by `keyport()` for every request it lets through. */
      keyport?: KeyportContext;
    }
  }
}

/** The options of Express's `keyport()`; `getKey` receives the request. */
export type KeyportExpressOptions = KeyportOptions<Request>;

/**
 * Express middleware that lets a request in only with a valid Keyport key, answering refusals itself
 * (401, 402 with `topUp`, 403, 429, 503) in Keyport's error envelope; the verification is `req.keyport`. The client's
 * address (the socket's peer, or with `trustProxy` the last `X-Forwarded-For` entry) is sent as `ip`.
 * @example
 * app.use(keyport({ baseUrl: "https://keyport.example.com" }));
 * app.get("/data", (req, res) => res.json({ key: req.keyport }));
 */
export function keyport(options: KeyportExpressOptions): RequestHandler {
  const { verifier, settings } = prepare(options);
  const { getKey, getIp } = options;
  return (req, res, next) => {
    const key = getKey
      ? Promise.resolve(getKey(req)).then((found) => found ?? undefined)
      : readKey(req.get("authorization"), req.get("x-api-key"));
    // The socket's peer, not `req.ip`: Express's own `trust proxy` setting does not widen what Keyport trusts.
    const ip = getIp
      ? (getIp(req) ?? undefined)
      : clientAddress(req.socket.remoteAddress, req.get("x-forwarded-for"), settings.trustProxy);
    const request = settings.topUp
      ? {
          url: `${req.protocol}://${req.get("host")}${req.originalUrl}`,
          payment: req.get("payment-signature"),
        }
      : undefined;
    const ratelimits = options.ratelimits?.(req);
    const decided =
      typeof key === "object"
        ? key.then((found) => decide(verifier, found, settings, ip, request, ratelimits))
        : decide(verifier, key, settings, ip, request, ratelimits);
    decided.then((decision) => {
      for (const [name, value] of decision.headers) res.setHeader(name, value);
      if (!decision.pass) {
        res.statusCode = decision.status;
        res.setHeader(JSON_CONTENT_TYPE[0], JSON_CONTENT_TYPE[1]);
        res.end(decision.body);
        return;
      }
      req.keyport = decision.context;
      next();
    }, next);
  };
}

export type { KeyportContext } from "./decision.js";
