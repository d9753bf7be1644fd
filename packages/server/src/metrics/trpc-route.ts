import type { AppProcedurePath } from "../routers/procedure-paths.js";

// A record over the router's own type: the compiler refuses a procedure missing here or one
// listed here that the router no longer has, without reading tRPC's internals at run time.
const PROCEDURES: Record<AppProcedurePath, true> = {
  "auth.nonce": true,
  "auth.verify": true,
  "auth.session": true,
  "auth.logout": true,
  "auth.sessions": true,
  "auth.endSession": true,
  "auth.endOtherSessions": true,
  "keys.create": true,
  "keys.list": true,
  "keys.get": true,
  "keys.revoke": true,
  "keys.roll": true,
  "keys.update": true,
  "keys.verify": true,
  "keys.introspect": true,
  "keys.topUp": true,
  "keys.topUpQuote": true,
  "keys.reportLeak": true,
  "keys.verifications": true,
  "keys.rateLimitUse": true,
  "usage.get": true,
  "events.list": true,
  "limits.get": true,
  "limits.set": true,
  "webhooks.list": true,
  "webhooks.create": true,
  "webhooks.update": true,
  "webhooks.delete": true,
  "webhooks.rotateSecret": true,
  "webhooks.test": true,
  "webhooks.deliveries": true,
  "webhooks.redeliver": true,
  "operator.tokens.create": true,
  "operator.tokens.list": true,
  "operator.tokens.revoke": true,
  "operator.audit.list": true,
  "operator.wallets.list": true,
  "operator.wallets.get": true,
  "operator.wallets.keys": true,
  "operator.wallets.events": true,
  "operator.wallets.usage": true,
  "operator.wallets.suspend": true,
  "operator.wallets.unsuspend": true,
  "operator.keys.revoke": true,
  "operator.keys.issue": true,
  "operator.payments.list": true,
  "operator.payments.totals": true,
  "operator.usage.get": true,
  "operator.plans.list": true,
  "operator.plans.create": true,
  "operator.plans.update": true,
  "operator.plans.archive": true,
  "operator.plans.setWalletPlan": true,
  "operator.plans.walletPlan": true,
  "operator.webhooks.list": true,
  "operator.webhooks.create": true,
  "operator.webhooks.get": true,
  "operator.webhooks.update": true,
  "operator.webhooks.delete": true,
  "operator.webhooks.rotateSecret": true,
  "operator.webhooks.test": true,
  "operator.webhooks.deliveries": true,
  "operator.webhooks.redeliver": true,
  meta: true,
  "plans.list": true,
  "wallets.get": true,
};

const LABELS = new Map(Object.keys(PROCEDURES).map((path) => [path, `/trpc/${path}`]));
const PREFIX = "/trpc/".length;

/**
 * The metrics label of a `/trpc/...` path: `/trpc/<procedure>` for one known procedure,
 * `/trpc/(batch)` for a batch of known procedures, `/trpc/(unknown)` otherwise, `/trpc` for the
 * bare base path. Anything a caller typed beyond the known names never becomes a label.
 * @example trpcRouteLabel("/trpc/keys.list") // "/trpc/keys.list"
 */
export function trpcRouteLabel(pathname: string): string {
  if (pathname.length <= PREFIX) return "/trpc";
  const path = pathname.slice(PREFIX);
  const label = LABELS.get(path);
  if (label !== undefined) return label;
  if (path.includes(",") && path.split(",").every((part) => LABELS.has(part))) return "/trpc/(batch)";
  return "/trpc/(unknown)";
}
