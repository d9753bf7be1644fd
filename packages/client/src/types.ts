import type { AppRouter } from "@keyport/server";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";

// Only the router's type comes from the server: no server code reaches the client's JavaScript, and the
// published declarations inline it with the service interfaces its context names (see scripts/build.ts).
export type { AppRouter };

/** Every procedure's input, e.g. `RouterInputs["keys"]["create"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;

/** Every procedure's output (Dates as `Date`, through superjson), e.g. `RouterOutputs["keys"]["list"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A key as every key procedure returns it (never the secret). */
export type ApiKey = RouterOutputs["keys"]["list"]["keys"][number];

/** What `keys.verify` answers for a key: `valid`, `code`, owner, expiry and rate-limit state. */
export type Verification = RouterOutputs["keys"]["verify"];

/** What `keys.introspect` answers to a key's holder: status, expiry, rate-limit window, credits, top-up URL. */
export type Introspection = RouterOutputs["keys"]["introspect"];

/** One limit of `keys.rateLimitUse`: a key's or its wallet's limit and its live use (`used` of `limit`). */
export type RateLimitUse = RouterOutputs["keys"]["rateLimitUse"]["ratelimits"][number];

/** One of a key's recent verifications (`keys.verifications`), with the limit that refused a RATE_LIMITED one. */
export type RecentVerification = RouterOutputs["keys"]["verifications"]["verifications"][number];

/** One audit event of `events.list`: a key change, sign-in or sign-out, and its public `changes`. */
export type KeyEvent = RouterOutputs["events"]["list"]["events"][number];

/** A wallet's usage over a range: totals, per key and a zero-filled series, by outcome. */
export type Usage = RouterOutputs["usage"]["get"];

/** A plan the operator sells, as `plans.list` (`GET /plans`) answers it (docs/plans.md). */
export type Plan = RouterOutputs["plans"]["list"]["plans"][number];

/** A wallet's plan and standing, as `wallets.get` (`GET /wallets/{wallet}`) answers it. */
export type WalletAccount = RouterOutputs["wallets"]["get"];
