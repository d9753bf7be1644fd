// @keyport/errors: the one error envelope of every Keyport service, with no runtime dependency.

// node:http's answer to requests it cannot parse
export { answerClientError, type ClientErrorSocket } from "./client-error.js";
// Codes and statuses
export {
  codeForStatus,
  ERROR_STATUS,
  type ErrorCode,
  isErrorCode,
  isKeyportErrorCode,
  type KeyportErrorCode,
  NETWORK_ERROR_STATUS,
  statusOf,
} from "./codes.js";
// The envelope
export {
  type ErrorEnvelope,
  errorBody,
  INTERNAL_ERROR_MESSAGE,
  publicMessage,
  type RefusalReason,
  readEnvelope,
  withRequestId,
} from "./envelope.js";
// Validation issues
export { type ErrorIssue, type IssueSource, issuesFromZod, readIssues } from "./issues.js";
// The clients' error
export {
  KeyportError,
  type KeyportErrorInit,
  networkError,
  type ToKeyportErrorOptions,
  toKeyportError,
  validationFailure,
} from "./keyport-error.js";
// Reasons beside a refusal's code
export { ERROR_REASONS, type ErrorReason, isReasonText } from "./reason.js";
// The id a request is known by, in its answer, its log lines and a 5xx envelope
export { acceptRequestId, isRequestId, REQUEST_ID_HEADER } from "./request-id.js";
