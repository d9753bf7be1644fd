import { TRPCError } from "@trpc/server";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { type Deadline, REQUEST_DEADLINE_MS, raceDeadline } from "../deadline.js";
import { errorSummary } from "../logger.js";
import { type Verification, verifyKeyInput } from "../schemas/verification.js";
import { RequestAbortedError, readJsonBody } from "./body.js";
import { INPUT_VALIDATION_FAILED, sendError, sendNoStoreJsonText } from "./errors.js";
import { type FastRoute, NO_STORE } from "./fast-route.js";
import { createJsonMemo } from "./json-memo.js";
import { requestIdOf } from "./request-id.js";

/** A shared answer (NOT_FOUND, a plain key's VALID) is serialised once. */
const verificationJson = createJsonMemo<Verification>(JSON.stringify);

/**
 * `POST /api-keys/verify` without the tRPC machinery: read the small body, validate it with the
 * procedure's own input schema, ask the verifier, write the answer. Same statuses and envelope as
 * the procedure (400 with `issues`, 413, 415); when the key is cached and the rate limiter is
 * in-process, no Promise beyond reading the body is created.
 */
export const verifyRoute: FastRoute = async (req, res, services) => {
  try {
    const parsed = verifyKeyInput.safeParse(await readJsonBody(req));
    if (!parsed.success) {
      throw new TRPCError({ code: "BAD_REQUEST", message: INPUT_VALIDATION_FAILED, cause: parsed.error });
    }
    const deadline: Deadline = { aborted: false };
    const answer = services.verification.verifier.verify(parsed.data.key, parsed.data, deadline);
    // A cached key answers at once; one that waits on the database or Redis has a deadline.
    sendNoStoreJsonText(
      res,
      200,
      verificationJson("then" in answer ? await raceDeadline(answer, REQUEST_DEADLINE_MS, deadline) : answer),
    );
  } catch (cause) {
    // The client left mid-body: not an outage, and nobody to answer (the handler logs the abort).
    if (cause instanceof RequestAbortedError) return;
    // The id is read only here, on a failure: an answered verification writes no line at info.
    if (isDatabaseUnavailable(cause)) {
      services.logger.warn(
        { err: errorSummary(cause), reqId: requestIdOf(res) },
        "verification failed: database unavailable",
      );
    } else if (!(cause instanceof TRPCError) || cause.code === "INTERNAL_SERVER_ERROR") {
      services.logger.error(
        { err: errorSummary(cause), route: "/api-keys/verify", reqId: requestIdOf(res) },
        "verification failed",
      );
    }
    if (!res.headersSent) sendError(res, cause, NO_STORE);
  }
};
