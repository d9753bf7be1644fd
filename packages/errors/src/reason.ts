/**
 * The reasons a server of this release names beside a refusal's code (docs/api.md#errors): the code
 * stays tRPC's code name, and `reason` says which of its causes it was, so a program can act on it.
 * A client reads any reason-shaped text (an older client meets newer reasons): this list is what
 * servers send, not what clients accept.
 */
export const ERROR_REASONS = [
  /** An operator token lacks the procedure's scope (`FORBIDDEN`); `details.scope` names it. */
  "INSUFFICIENT_SCOPE",
  /** The wallet is suspended by this deployment's operator (`FORBIDDEN`). */
  "WALLET_SUSPENDED",
  /**
   * The wallet's plan does not allow what a key create, update or roll asked (`FORBIDDEN`);
   * `details: { field, plan, bound }` name the field, the plan's id and its bound.
   */
  "PLAN_LIMIT",
] as const;

/** A reason a server of this release sends. */
export type ErrorReason = (typeof ERROR_REASONS)[number];

const REASON_TEXT = /^[A-Z][A-Z0-9_]{0,63}$/;

/** Whether `value` has the shape of a reason (upper-case words joined by `_`, at most 64 characters). */
export function isReasonText(value: unknown): value is string {
  return typeof value === "string" && REASON_TEXT.test(value);
}
