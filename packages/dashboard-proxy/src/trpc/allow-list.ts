import { TOP_UP_FORWARD_MS } from "@keyport/node-edge";
import type { AppProcedurePath } from "@keyport/server";

/** Whether the proxy's `/trpc` forwards a procedure to the server and, when it does not, why. */
export type Forwarding = { forwarded: true } | { forwarded: false; because: string };

const FORWARDED: Forwarding = { forwarded: true };

/**
 * Every procedure of the server's `AppRouter`, forwarded to the browser or not, and why not. A Record
 * over the server's procedure paths: a procedure added to the server fails the proxy's typecheck until
 * it is decided here, and one removed fails it until its entry goes (test/procedure-coverage.test.ts
 * checks the same against the running router).
 */
export const PROCEDURE_FORWARDING: Readonly<Record<AppProcedurePath, Forwarding>> = {
  "auth.nonce": FORWARDED,
  "auth.verify": {
    forwarded: false,
    because: "its answer holds the session token, which only /api/session may see (and keeps in the cookie)",
  },
  "auth.session": FORWARDED,
  "auth.logout": {
    forwarded: false,
    because: "DELETE /api/session ends a session, and it also clears the cookie",
  },
  "auth.sessions": FORWARDED,
  "auth.endSession": FORWARDED,
  "auth.endOtherSessions": FORWARDED,
  "keys.list": FORWARDED,
  "keys.get": FORWARDED,
  "keys.create": FORWARDED,
  "keys.update": FORWARDED,
  "keys.revoke": FORWARDED,
  "keys.roll": FORWARDED,
  "keys.topUpQuote": FORWARDED,
  "keys.topUp": FORWARDED,
  "keys.verifications": FORWARDED,
  "keys.rateLimitUse": FORWARDED,
  "keys.verify": {
    forwarded: false,
    because: "a backend's call, made with the key's own secret, which a dashboard never holds",
  },
  "keys.introspect": {
    forwarded: false,
    because: "a key holder's call, made with the key's own secret, which a dashboard never holds",
  },
  // The dashboard's "Report leaked": the holder pastes the key found in public (docs/leaks.md).
  "keys.reportLeak": FORWARDED,
  "usage.get": FORWARDED,
  "limits.get": FORWARDED,
  "limits.set": FORWARDED,
  "events.list": FORWARDED,
  "webhooks.list": FORWARDED,
  "webhooks.create": FORWARDED,
  "webhooks.update": FORWARDED,
  "webhooks.delete": FORWARDED,
  "webhooks.rotateSecret": FORWARDED,
  "webhooks.test": FORWARDED,
  "webhooks.deliveries": FORWARDED,
  "webhooks.redeliver": FORWARDED,
  // Public facts of the server's setup; the page reads them merged into /api/meta.
  meta: FORWARDED,
  // The operator console (docs/operator.md): the server refuses a session that is not an operator's.
  "operator.tokens.create": FORWARDED,
  "operator.tokens.list": FORWARDED,
  "operator.tokens.revoke": FORWARDED,
  "operator.audit.list": FORWARDED,
  "operator.wallets.list": FORWARDED,
  "operator.wallets.get": FORWARDED,
  "operator.wallets.keys": FORWARDED,
  "operator.wallets.events": FORWARDED,
  "operator.wallets.usage": FORWARDED,
  "operator.wallets.suspend": FORWARDED,
  "operator.wallets.unsuspend": FORWARDED,
  "operator.keys.revoke": FORWARDED,
  "operator.keys.issue": FORWARDED,
  "operator.payments.list": FORWARDED,
  "operator.payments.totals": FORWARDED,
  "operator.usage.get": FORWARDED,
  "operator.webhooks.list": FORWARDED,
  "operator.webhooks.create": FORWARDED,
  "operator.webhooks.get": FORWARDED,
  "operator.webhooks.update": FORWARDED,
  "operator.webhooks.delete": FORWARDED,
  "operator.webhooks.rotateSecret": FORWARDED,
  "operator.webhooks.test": FORWARDED,
  "operator.webhooks.deliveries": FORWARDED,
  "operator.webhooks.redeliver": FORWARDED,
  "operator.plans.list": FORWARDED,
  "operator.plans.create": FORWARDED,
  "operator.plans.update": FORWARDED,
  "operator.plans.archive": FORWARDED,
  "operator.plans.setWalletPlan": FORWARDED,
  "operator.plans.walletPlan": FORWARDED,
  // The plans on offer (public) and the session's wallet's plan (docs/plans.md).
  "plans.list": FORWARDED,
  "wallets.get": FORWARDED,
};

/** The procedures a browser may call through the proxy's `/trpc` (see `PROCEDURE_FORWARDING`). */
export const FORWARDED_PROCEDURES: ReadonlySet<string> = new Set(
  Object.entries(PROCEDURE_FORWARDING).flatMap(([path, forwarding]) => (forwarding.forwarded ? [path] : [])),
);

/**
 * How long the forward of a call waits for the server, when longer than KEYPORT_TIMEOUT_MS: a top-up
 * waits the whole of its time budget, of which the server answers within its share
 * (docs/payments.md#one-time-budget).
 */
export const FORWARD_TIMEOUT_MS: Readonly<Partial<Record<AppProcedurePath, number>>> = {
  "keys.topUp": TOP_UP_FORWARD_MS,
};

/** Why a `/trpc` path is refused, or the procedures it names. */
export type ProcedurePath =
  | { ok: true; procedures: string[] }
  | { ok: false; reason: "encoded" | "not_allowed" };

/**
 * Reads a `/trpc/<path>` as tRPC does: the path after the prefix, split on `,` for a batch. A `%` is
 * refused outright: tRPC decodes the path, so `auth%2Everify` would name a procedure the allow-list
 * never saw. Every procedure of a batch must be allowed.
 * @example readProcedurePath("keys.list,usage.get") // { ok: true, procedures: ["keys.list", "usage.get"] }
 */
export function readProcedurePath(path: string): ProcedurePath {
  if (path.includes("%")) return { ok: false, reason: "encoded" };
  const procedures = path.split(",");
  if (!procedures.every((name) => FORWARDED_PROCEDURES.has(name)))
    return { ok: false, reason: "not_allowed" };
  return { ok: true, procedures };
}
