import {
  type ErrorEnvelope,
  errorBody,
  type IssueSource,
  issuesFromZod,
  statusOf,
  withRequestId,
} from "@keyport/errors";

/** An error as a value: the envelope plus any headers it needs (`Retry-After`). */
export interface ApiError extends ErrorEnvelope {
  headers?: Record<string, string>;
}

/**
 * Builds the one JSON error response every failure ends as (@keyport/errors' envelope, status from its
 * code table). Never carries a stack or upstream text: a 500 says only "Internal server error". A
 * 5xx carries `requestId` (the request's `X-Request-Id`, `event.context.requestId`) when given.
 */
export function errorResponse(error: ApiError, requestId?: string): Response {
  const status = statusOf(error.code);
  const body = withRequestId(status, errorBody(error.code, error.message, error.issues), requestId);
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...error.headers,
    },
  });
}

/** A 400 listing each zod issue by path (array indexes as numbers) and message; messages never echo values. */
export function validationError(error: IssueSource, message = "Invalid request"): ApiError {
  return { code: "BAD_REQUEST", message, issues: issuesFromZod(error) };
}
