import { TRPCError } from "@trpc/server";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { createContext, type Services } from "../context.js";
import { errorSummary } from "../logger.js";
import type { AppRouter } from "../routers/_app.js";
import { BODY_TOO_LARGE, declaresTooLargeBody, MAX_BODY_BYTES } from "./body.js";
import { NO_STORE } from "./fast-route.js";
import { requestIdOf } from "./request-id.js";

/** Procedure calls one batched tRPC request may carry; more is 400 `BAD_REQUEST`. */
export const MAX_BATCH_SIZE = 10;

const JSON_TYPE = { "content-type": "application/json" };

/**
 * tRPC's node adapter for `/trpc/*`: bodies up to `MAX_BODY_BYTES` (a larger declared one is 413
 * before it is read), batches up to `MAX_BATCH_SIZE`, `no-store` on verifications, JSON on every
 * error, and an error log line for each 500.
 * @example const trpc = createTrpcHandler(appRouter, services); trpc(req, res)
 */
export function createTrpcHandler(router: AppRouter, services: Services) {
  return createHTTPHandler({
    router,
    basePath: "/trpc/",
    maxBodySize: MAX_BODY_BYTES,
    // One request cannot fan out into unbounded procedure calls; the client's batch link sends at most 10.
    maxBatchSize: MAX_BATCH_SIZE,
    // tRPC's public hook before it reads anything: a declared body over the limit fails every call
    // with 413 at once, in tRPC's error shape, and the connection closes instead of draining it.
    middleware: (req, res, next) => {
      if (!declaresTooLargeBody(req)) return next();
      res.setHeader("connection", "close");
      next(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: BODY_TOO_LARGE }));
    },
    createContext: ({ req, res, info }) => createContext(services, req, res, requestIdOf(res), info.calls),
    responseMeta: ({ paths, eagerGeneration }) => ({
      headers: {
        // Verification answers are authorisation decisions, introspections a key's live state:
        // never cached on the way.
        ...(paths?.includes("keys.verify") || paths?.includes("keys.introspect") ? NO_STORE : {}),
        // tRPC leaves the type off an error it raises before any call (a 415, say): it is JSON too.
        ...(eagerGeneration ? {} : JSON_TYPE),
      },
    }),
    onError: ({ error, path, ctx }) => logTrpcError(services, error, path, ctx?.requestId),
  });
}

/** The error line of a tRPC call that failed with a 500 (every other failure is the caller's). */
export function logTrpcError(
  services: Services,
  error: TRPCError,
  path: string | undefined,
  reqId: string | undefined,
): void {
  if (error.code === "INTERNAL_SERVER_ERROR")
    services.logger.error({ err: errorSummary(error.cause ?? error), path, reqId }, "procedure failed");
}
