import type { ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "@keyport/errors";
import { TRPCError } from "@trpc/server";
import type { Services } from "../context.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { type Deadline, REQUEST_DEADLINE_MS, raceDeadline } from "../deadline.js";
import { errorSummary } from "../logger.js";
import { type Verification, verifyKeyInput } from "../schemas/verification.js";
import { parseJsonBody, RequestAbortedError, readJsonBodyBytes } from "./body.js";
import { INPUT_VALIDATION_FAILED, sendError, sendNoStoreJsonText } from "./errors.js";
import { type FastRoute, NO_STORE } from "./fast-route.js";
import { createJsonMemo } from "./json-memo.js";
import { plainVerifyInput, type VerifyInput } from "./verify-body.js";

/** A shared answer (NOT_FOUND, a plain key's VALID) is serialised once. */
const verificationJson = createJsonMemo<Verification>(JSON.stringify);

/**
 * `POST /api-keys/verify` without the tRPC machinery: read the small body, validate it with the
 * procedure's own input schema (the SDKs' bodies, `{"key":"…"}` and `{"key":"…","permissions":[…]}`,
 * are read without a JSON parse: verify-body.ts), ask the verifier, write the answer. Same statuses and envelope as the procedure
 * (400 with `issues`, 413, 415); when the key is cached and the rate limiter is in-process, the
 * only Promise is the one the request handler waits on.
 */
export const verifyRoute: FastRoute = (req, res, services, requestId) =>
  new Promise<void>((resolve) => {
    readJsonBodyBytes(req, (error, body) => {
      try {
        if (error !== undefined) throw error;
        const input = (body === undefined ? undefined : plainVerifyInput(body)) ?? validInput(body);
        const deadline: Deadline = { aborted: false };
        const answer = services.verification.verifier.verify(input.key, input, deadline);
        if (!("then" in answer)) {
          sendNoStoreJsonText(res, 200, verificationJson(answer), requestId);
          resolve();
          return;
        }
        // A key that waits on the database or Redis has a deadline.
        raceDeadline(answer, REQUEST_DEADLINE_MS, deadline)
          .then((verification) => sendNoStoreJsonText(res, 200, verificationJson(verification), requestId))
          .catch((cause: unknown) => fail(res, services, requestId, cause))
          .finally(resolve);
      } catch (cause) {
        fail(res, services, requestId, cause);
        resolve();
      }
    });
  });

function validInput(body: Buffer | undefined): VerifyInput {
  const parsed = verifyKeyInput.safeParse(parseJsonBody(body));
  if (!parsed.success) {
    throw new TRPCError({ code: "BAD_REQUEST", message: INPUT_VALIDATION_FAILED, cause: parsed.error });
  }
  return parsed.data;
}

function fail(res: ServerResponse, services: Services, requestId: string, cause: unknown): void {
  // The client left mid-body: not an outage, and nobody to answer (the handler logs the abort).
  if (cause instanceof RequestAbortedError) return;
  // The id is logged only here, on a failure: an answered verification writes no line at info.
  if (isDatabaseUnavailable(cause)) {
    services.logger.warn(
      { err: errorSummary(cause), reqId: requestId },
      "verification failed: database unavailable",
    );
  } else if (!(cause instanceof TRPCError) || cause.code === "INTERNAL_SERVER_ERROR") {
    services.logger.error(
      { err: errorSummary(cause), route: "/api-keys/verify", reqId: requestId },
      "verification failed",
    );
  }
  if (res.headersSent) return;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  sendError(res, cause, NO_STORE);
}
