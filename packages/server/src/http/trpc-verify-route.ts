import { getErrorShape, getTRPCErrorFromUnknown, TRPCError, transformTRPCResponse } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.js";
import { errorSummary } from "../logger.js";
import type { AppRouter } from "../routers/_app.js";
import { verifyKeyInput } from "../schemas/verification.js";
import { readJsonBody } from "./body.js";
import { sendJson } from "./errors.js";
import type { FastRoute } from "./handler.js";
import { NO_STORE } from "./verify-route.js";

const HEADERS = { ...NO_STORE, vary: "trpc-accept, accept" };

/**
 * Unbatched `POST /trpc/keys.verify` (what `httpLink` sends) answered without tRPC's fetch-API
 * adapter, which costs most of a verification's time. It speaks the same wire format: the body
 * is the transformer-serialised input, the answer `{ result: { data } }` or `{ error }` shaped by
 * the router's own error formatter, with the same statuses. Batched calls (`?batch=1`) carry a
 * query string, so they never reach a fast route and go through tRPC as usual.
 */
export function createTrpcVerifyRoute(router: AppRouter): FastRoute {
  const config = router._def._config;
  return async (req, res, services) => {
    let input: unknown;
    try {
      const body = await readJsonBody(req);
      input = body === undefined ? undefined : config.transformer.input.deserialize(body);
      const parsed = verifyKeyInput.safeParse(input);
      if (!parsed.success) throw new TRPCError({ code: "BAD_REQUEST", cause: parsed.error });
      const answer = services.verification.verifier.verify(parsed.data.key);
      const data = "then" in answer ? await answer : answer;
      sendJson(res, 200, transformTRPCResponse(config, { result: { data } }), HEADERS);
    } catch (cause) {
      const error = isDatabaseUnavailable(cause)
        ? new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE, cause })
        : getTRPCErrorFromUnknown(cause);
      if (error.code === "INTERNAL_SERVER_ERROR") {
        services.logger.error(
          { err: errorSummary(error.cause ?? error), path: "keys.verify" },
          "verification failed",
        );
      }
      const shape = getErrorShape({
        config,
        error,
        type: "mutation",
        path: "keys.verify",
        input,
        ctx: undefined,
      });
      if (!res.headersSent) {
        sendJson(
          res,
          getHTTPStatusCodeFromError(error),
          transformTRPCResponse(config, { error: shape }),
          HEADERS,
        );
      }
    }
  };
}
