import { codeForStatus, type KeyportErrorCode, NETWORK_ERROR_STATUS } from "./codes.js";
import { readEnvelope } from "./envelope.js";
import { type ErrorIssue, type IssueSource, issuesFromZod } from "./issues.js";
import { isRequestId } from "./request-id.js";

/** What a `KeyportError` is built from. */
export interface KeyportErrorInit {
  code: KeyportErrorCode;
  status: number;
  message: string;
  issues?: ErrorIssue[] | undefined;
  /** The refusal's specific cause beside its code (docs/api.md#errors), when the answer named one. */
  reason?: string | undefined;
  /** Facts about the refusal that go with `reason`. */
  details?: Record<string, unknown> | undefined;
  /** The request's `X-Request-Id`: the id by which its log lines are found (docs/api.md, Errors). */
  requestId?: string | undefined;
  cause?: unknown;
}

/**
 * The one error Keyport's clients throw: the API's `code`, the HTTP `status` (0 when no response
 * arrived), for validation errors `issues`, for some refusals a `reason` (with `details`) naming the
 * cause, and, when the answer named it, the `requestId` to quote to the operator (as Stripe's
 * `requestId` on its errors).
 * @example
 * try { await keyport.keys.create.mutate({ name: "" }) }
 * catch (error) { if (error instanceof KeyportError && error.code === "BAD_REQUEST") showIssues(error.issues) }
 */
export class KeyportError extends Error {
  override name = "KeyportError";
  readonly code: KeyportErrorCode;
  readonly status: number;
  readonly issues: ErrorIssue[] | undefined;
  readonly reason: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;

  constructor(init: KeyportErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.issues = init.issues;
    this.reason = init.reason;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

/** How `toKeyportError` words an answer that carries no envelope, and what it keeps as `cause`. */
export interface ToKeyportErrorOptions {
  /** The message when `body` is not an envelope; default "The server answered HTTP <status>". */
  fallbackMessage?: string;
  /** The answer's `X-Request-Id` header; the envelope's own `requestId` (on a 5xx) wins. */
  requestId?: string | null | undefined;
  cause?: unknown;
}

/**
 * The KeyportError for an HTTP error answer: the envelope's code, message and issues when `body` is
 * one (validated, never assumed), else the code for `status` and a message that names the status.
 * @example throw toKeyportError(response.status, await response.json().catch(() => undefined))
 */
export function toKeyportError(
  status: number,
  body: unknown,
  options: ToKeyportErrorOptions = {},
): KeyportError {
  const envelope = readEnvelope(body);
  const { cause } = options;
  const header = isRequestId(options.requestId) ? options.requestId : undefined;
  if (envelope !== undefined)
    return new KeyportError({ ...envelope, requestId: envelope.requestId ?? header, status, cause });
  return new KeyportError({
    code: codeForStatus(status),
    status,
    message: options.fallbackMessage ?? `The server answered HTTP ${status}`,
    requestId: header,
    cause,
  });
}

/**
 * A KeyportError for input refused before any request, shaped like the 400 a server would send.
 * @example if (!parsed.success) throw validationFailure(parsed.error, "Invalid query")
 */
export function validationFailure(error: IssueSource, message: string): KeyportError {
  return new KeyportError({ code: "BAD_REQUEST", status: 400, message, issues: issuesFromZod(error) });
}

/** A KeyportError for a request that got no HTTP response (refused, reset, DNS...). */
export function networkError(cause: unknown): KeyportError {
  return new KeyportError({
    code: "NETWORK_ERROR",
    status: NETWORK_ERROR_STATUS,
    message: "The request failed before an HTTP response arrived",
    cause,
  });
}
