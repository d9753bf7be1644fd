import { issuesFromZod, publicMessage } from "@keyport/errors";
import { initTRPC, type TRPCDefaultErrorShape, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Context } from "./context.js";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "./db/unavailable.js";
import { REQUEST_DEADLINE_MS, withDeadline } from "./deadline.js";
import { INPUT_VALIDATION_FAILED, NO_SUCH_PROCEDURE, trpcOwnMessage } from "./http/errors.js";
import type { OperatorIdentity } from "./operator/operator-service.js";
import type { ProcedureMeta } from "./procedure-meta.js";
import { refusalOf, refuse } from "./refusal.js";
import type { OperatorScope } from "./schemas/operator.js";
import { transformer } from "./trpc-transformer.js";

/** What a 400 says when the input could not be decoded (bad JSON or superjson). */
export const MALFORMED_INPUT = "The request input could not be decoded";

/**
 * True for a 400 whose message is a library's own (tRPC copies the thrown error's message when the
 * transformer or JSON parser fails on input, e.g. superjson's "Trying to deserialize unknown class
 * 'Foo'" or "Maximum call stack size exceeded"): such text names internals, so it is replaced.
 */
function fromLibrary(error: TRPCError): boolean {
  if (error.code !== "BAD_REQUEST" && error.code !== "PARSE_ERROR") return false;
  const cause = error.cause;
  return (
    cause instanceof Error &&
    !(cause instanceof ZodError) &&
    !(cause instanceof TRPCError) &&
    error.message === cause.message
  );
}

/** What tRPC hands the error formatter that the formatter reads. */
export interface TrpcErrorFormatterInput {
  shape: TRPCDefaultErrorShape;
  error: TRPCError;
  /** The procedure's type, `"unknown"` when no procedure matched. */
  type: string;
  ctx: Pick<Context, "requestId"> | undefined;
}

/**
 * The error shape of every tRPC answer, also used by the verify fast path (http/trpc-verify.ts).
 * The envelope's rules (@keyport/errors): issue paths keep array indexes as numbers, and a 5xx
 * other than a dependency's fixed text says only "Internal server error" (tRPC would send the
 * thrown error's own message, which may quote SQL).
 */
export function formatTrpcError({ shape, error, type, ctx }: TrpcErrorFormatterInput) {
  const issues =
    error.code === "BAD_REQUEST" && error.cause instanceof ZodError ? issuesFromZod(error.cause) : undefined;
  // tRPC's own refusals (unknown procedure, content type, method) quote the request: fixed texts.
  const own = trpcOwnMessage(error, type);
  // tRPC's own message for invalid input is zod's issue dump: REST's one sentence instead.
  const fixed = own ?? (issues === undefined ? undefined : INPUT_VALIDATION_FAILED);
  return {
    ...shape,
    message: fixed ?? (fromLibrary(error) ? MALFORMED_INPUT : publicMessage(error.code, shape.message)),
    data: {
      ...shape.data,
      stack: undefined,
      issues,
      // The path of a procedure that does not exist is whatever the caller typed.
      path: own === NO_SUCH_PROCEDURE ? undefined : shape.data.path,
      // A 5xx names its request, as the REST envelope does: the id its X-Request-Id header carries.
      requestId: shape.data.httpStatus >= 500 ? ctx?.requestId : undefined,
      // A refusal's specific cause beside its code, as the REST envelope carries it (refusal.ts).
      ...(shape.data.httpStatus < 500 ? refusalOf(error) : undefined),
    },
  };
}

const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  // superjson, with input depth and `__proto__` keys checked first (trpc-transformer.ts).
  transformer,
  // Never ship stack traces, whatever NODE_ENV says.
  isDev: false,
  errorFormatter: formatTrpcError,
});

/** Composes procedures into a router. */
export const router = t.router;

/**
 * A procedure anyone may call. An unreachable database answers 503 (retry), not 500, and so does a
 * call still waiting on its dependencies after `REQUEST_DEADLINE_MS` (`ctx.deadline` fires then).
 */
export const publicProcedure = t.procedure.use(async ({ next }) => {
  // tRPC merges the given keys into the context: only the new one is passed (a copy of the whole
  // context per call would be one more copy of every service).
  const result = await withDeadline(REQUEST_DEADLINE_MS, (deadline) => next({ ctx: { deadline } }));
  return unavailableWhenDatabaseIs(result);
});

/** A call that failed because the database cannot answer becomes 503 (docs/api.md); any other result passes. */
function unavailableWhenDatabaseIs<Result extends { ok: boolean; error?: unknown }>(result: Result): Result {
  if (!result.ok && result.error instanceof TRPCError && result.error.code === "INTERNAL_SERVER_ERROR") {
    if (isDatabaseUnavailable(result.error.cause))
      throw new TRPCError({
        code: "SERVICE_UNAVAILABLE",
        message: DATABASE_UNAVAILABLE,
        cause: result.error.cause,
      });
  }
  return result;
}

/**
 * A procedure that waits on a payment's settlement (docs/payments.md): not bound by the request
 * deadline (it bounds its own waits by the payment's maxTimeoutSeconds). An unreachable database is
 * still 503.
 */
export const settlementProcedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  return unavailableWhenDatabaseIs(result);
});

/** Turns a router into a server-side caller (tests, REST mapping). */
export const createCallerFactory = t.createCallerFactory;

/**
 * The session's wallet, end and token, or UNAUTHORIZED. The REST mapping also calls it when input
 * is invalid, so it answers 401 before 400 as tRPC does (middlewares run before the input parser).
 */
export async function requireSession(
  ctx: Pick<Context, "bearerToken" | "sessions">,
): Promise<{ wallet: string; sessionExpiresAt: Date; bearerToken: string }> {
  const token = ctx.bearerToken;
  const session = token === null ? null : await ctx.sessions.find(token);
  if (token === null || session === null) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "A valid session token is required" });
  }
  return { wallet: session.wallet, sessionExpiresAt: session.expiresAt, bearerToken: token };
}

/**
 * A procedure that needs `Authorization: Bearer <session token>`; puts the session's wallet in
 * `ctx.wallet` and its end in `ctx.sessionExpiresAt`.
 */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = await requireSession(ctx);
  return next({ ctx: { ...ctx, ...session } });
});

/** What an operator procedure needs: one scope of a token (an operator session has them all), or a session. */
export type OperatorRequirement = OperatorScope | "session";

const OPERATOR_REQUIRED = "An operator session or an operator token is required";

/**
 * The operator calling, or the refusal (docs/operator.md#who-is-an-operator): no bearer, or one that
 * is no live operator token or session, is 401; a session whose wallet is not in OPERATOR_WALLETS
 * (read at this request) is 403; a token without `requirement`'s scope is 403 `INSUFFICIENT_SCOPE`
 * naming it, and a token where only a session will do (creating and revoking tokens) is 403. The
 * REST mapping also calls it when input is invalid, so 401 and 403 come before 400, as over tRPC.
 */
export async function requireOperator(
  ctx: Pick<Context, "bearerToken" | "sessions" | "operators">,
  requirement: OperatorRequirement,
): Promise<OperatorIdentity> {
  const bearer = ctx.bearerToken;
  if (bearer === null) throw new TRPCError({ code: "UNAUTHORIZED", message: OPERATOR_REQUIRED });
  if (ctx.operators.isTokenShaped(bearer)) {
    const token = await ctx.operators.findToken(bearer);
    if (token === null)
      throw new TRPCError({
        code: "UNAUTHORIZED",
        message: "The operator token is unknown, revoked or expired",
      });
    if (requirement === "session")
      throw new TRPCError({
        code: "FORBIDDEN",
        message: "Only an operator session can do this: no operator token manages tokens or webhooks",
      });
    if (!token.scopes.has(requirement))
      throw refuse("FORBIDDEN", "INSUFFICIENT_SCOPE", `This operator token lacks the scope ${requirement}`, {
        scope: requirement,
      });
    return { actor: { type: "token", id: token.id, name: token.name }, scopes: token.scopes };
  }
  const session = await ctx.sessions.find(bearer);
  if (session === null) throw new TRPCError({ code: "UNAUTHORIZED", message: OPERATOR_REQUIRED });
  if (!ctx.operators.isOperatorWallet(session.wallet))
    throw new TRPCError({ code: "FORBIDDEN", message: "This wallet is not an operator of this deployment" });
  return { actor: { type: "wallet", address: session.wallet }, scopes: null };
}

/**
 * A procedure of the operator API (routers/operator/): callable by an operator session, or by an
 * operator token holding `requirement` (`"session"`: by a session only). Puts the caller in
 * `ctx.operator`. Wallet procedures never branch on the operator role (docs/operator.md).
 */
export function operatorProcedure(requirement: OperatorRequirement) {
  return publicProcedure.use(async ({ ctx, next }) => {
    const operator = await requireOperator(ctx, requirement);
    return next({ ctx: { operator } });
  });
}
