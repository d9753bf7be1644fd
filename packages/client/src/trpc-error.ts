import {
  type ErrorIssue,
  toKeyportError as fromEnvelope,
  KeyportError,
  networkError,
  REQUEST_ID_HEADER,
  readIssues,
} from "@keyport/errors";
import { TRPCClientError } from "@trpc/client";
import { z } from "zod";

// The error shape's `data` as the server's error formatter sends it; validated, never assumed. Read by
// shape, so a `TRPCClientErrorLike` from TanStack Query's hooks (or another copy of tRPC) reads the same.
const withErrorData = z.object({
  data: z.object({
    code: z.string(),
    httpStatus: z.number().int(),
    issues: z.unknown(),
    requestId: z.unknown(),
    reason: z.unknown().optional(),
    details: z.unknown().optional(),
  }),
});

/** The answer's `X-Request-Id` header, when the error carries the HTTP response (tRPC's `meta.response`). */
function requestIdHeader(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const response = error.meta?.response;
  if (typeof Response === "undefined" || !(response instanceof Response)) return null;
  return response.headers.get(REQUEST_ID_HEADER);
}

/**
 * Turns whatever a Keyport call failed with into a KeyportError: for a `TRPCClientError`, the server's code,
 * HTTP status, message, issues and reason (with its details) when it answered, `CLIENT_CLOSED_REQUEST` (499) when the caller aborted,
 * `NETWORK_ERROR` (status 0) when no answer arrived; a KeyportError (the dashboard client's) as it is.
 * @example
 * try { await keyport.keys.create.mutate({ name: "" }) }
 * catch (error) { const { code, status, issues } = toKeyportError(error) }
 */
export function toKeyportError(error: unknown): KeyportError {
  if (error instanceof KeyportError) return error;
  const shaped = withErrorData.safeParse(error);
  if (shaped.success && error instanceof Error) {
    const { code, httpStatus, requestId, reason, details } = shaped.data.data;
    const issues = readIssues(shaped.data.data.issues);
    // For input validation tRPC's message is zod's JSON dump of the issues; say it in one readable line.
    const message = issues && issues.length > 0 ? describeIssues(issues) : error.message;
    return fromEnvelope(
      httpStatus,
      { code, message, issues, requestId, reason, details },
      { fallbackMessage: message, requestId: requestIdHeader(error), cause: error },
    );
  }
  if (!(error instanceof TRPCClientError)) return networkError(error);
  if (error.cause?.name === "AbortError") {
    return new KeyportError({
      code: "CLIENT_CLOSED_REQUEST",
      status: 499,
      message: "The call was aborted",
      cause: error,
    });
  }
  // An HTTP answer that is not a tRPC error (a gateway's HTML 502, say): keep its status.
  const response = error.meta?.response;
  if (typeof Response !== "undefined" && response instanceof Response) {
    return fromEnvelope(response.status, undefined, {
      fallbackMessage: `The server answered HTTP ${response.status} without a tRPC error body`,
      requestId: response.headers.get(REQUEST_ID_HEADER),
      cause: error,
    });
  }
  return networkError(error);
}

function describeIssues(issues: ErrorIssue[]): string {
  return `Invalid input: ${issues.map((issue) => `${issue.path.join(".") || "(input)"}: ${issue.message}`).join("; ")}`;
}
