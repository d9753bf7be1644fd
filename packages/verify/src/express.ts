// `@keyport/verify/express`: Keyport's middleware for Express (4 and 5).
import type { Request, RequestHandler } from "express";
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
 * (401, 402 with `topUp`, 403, 429, 503) in Keyport's error envelope; the verification is `req.keyport`.
 * @example
 * app.use(keyport({ baseUrl: "https://keyport.example.com" }));
 * app.get("/data", (req, res) => res.json({ key: req.keyport }));
 */
export function keyport(options: KeyportExpressOptions): RequestHandler {
  const { verifier, settings } = prepare(options);
  const { getKey } = options;
  return (req, res, next) => {
    const key = getKey
      ? Promise.resolve(getKey(req)).then((found) => found ?? undefined)
      : readKey(req.get("authorization"), req.get("x-api-key"));
    const request = settings.topUp
      ? {
          url: `${req.protocol}://${req.get("host")}${req.originalUrl}`,
          payment: req.get("payment-signature"),
        }
      : undefined;
    const decided =
      typeof key === "object"
        ? key.then((found) => decide(verifier, found, settings, request))
        : decide(verifier, key, settings, request);
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
