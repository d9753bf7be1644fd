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
  // A refusal's reason (e.g. a suspended wallet's sign-in, WALLET_SUSPENDED) passes on as the server gave it.
  const refusal = error.reason === undefined ? undefined : { reason: error.reason, details: error.details };
  const body = withRequestId(status, errorBody(error.code, error.message, error.issues, refusal), requestId);
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      // A browser never sniffs an error body into HTML or script, whatever it holds.
      "x-content-type-options": "nosniff",
      ...error.headers,
    },
  });
}

/** A zod error as `validationError` reads it: each issue's code too (zod's `ZodError` fits). */
export interface ValidationIssues extends IssueSource {
  readonly issues: readonly {
    readonly code?: string;
    readonly path: readonly PropertyKey[];
    readonly message: string;
  }[];
}

// zod's text for unknown keys quotes them ("Unrecognized key: \"<name>\""): a name is the caller's
// text, and an error answer never repeats the request.
const UNKNOWN_KEYS = "Unknown parameters or fields are not accepted";

/**
 * A 400 listing each zod issue by path (array indexes as numbers) and message; messages never echo
 * values, nor the names of unknown parameters or fields.
 */
export function validationError(error: ValidationIssues, message = "Invalid request"): ApiError {
  const issues = error.issues.map((issue) =>
    issue.code === "unrecognized_keys" ? { path: issue.path, message: UNKNOWN_KEYS } : issue,
  );
  return { code: "BAD_REQUEST", message, issues: issuesFromZod({ issues }) };
}
