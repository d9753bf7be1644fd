import type { IncomingMessage, ServerResponse } from "node:http";
import { acceptRequestId } from "@keyport/errors";
import { requestClientAddress, type TrustedProxies } from "@keyport/node-edge";
import type { Logger } from "pino";
import type { SignInLog } from "./auth/sign-in-log.js";
import type { SignInRefusals } from "./auth/sign-in-refusals.js";
import type { NonceStore, SessionStore, SiweChecker } from "./auth/stores.js";
import type { Database } from "./db/database.js";
import type { Env } from "./env.js";
import type { EventStore } from "./events/event-store.js";
import type { KeyIntrospection } from "./introspection/introspect.js";
import type { KeyStore } from "./keys/key-store.js";
import type { LeakService } from "./leaks/leak-service.js";
import type { WalletLimitStore } from "./limits/wallet-limit-store.js";
import type { OperatorService } from "./operator/operator-service.js";
import type { TopUpService } from "./payments/top-up-service.js";
import type { PlanStore } from "./plans/plan-store.js";
import type { LimitStore } from "./ratelimit/limit-store.js";
import type { ServerMeta } from "./schemas/meta.js";
import type { BatchCall } from "./usage/batch-cost.js";
import type { UsageReader } from "./usage/read.js";
import type { VerificationServices } from "./verify/verification-services.js";
import type { KeyVerifier } from "./verify/verify.js";
import type { WalletSuspensions } from "./wallets/suspension.js";
import type { WebhookService } from "./webhooks/webhook-service.js";

/**
 * What procedures may use: the project's own service interfaces, never a database, driver or
 * logger type. That keeps `AppRouter`'s type (which carries the context) free of the server's
 * dependencies, so a standard declaration bundler can ship it to clients.
 */
export interface ProcedureServices {
  keys: KeyStore;
  events: EventStore;
  limits: WalletLimitStore;
  sessions: SessionStore;
  nonces: NonceStore;
  siwe: SiweChecker;
  signInLog: SignInLog;
  signInRefusals: SignInRefusals;
  usage: UsageReader;
  leaks: LeakService;
  verifier: KeyVerifier;
  introspection: KeyIntrospection;
  /** Verification's sliding-window counters, which keys.rateLimitUse reads without spending. */
  limitWindows: LimitStore;
  topUps: TopUpService;
  /**
   * The server's URL as its users reach it (PUBLIC_URL, else where it listens; http/public-url.ts),
   * for the URLs answers name (the top-up's x402 `resource`). Never the request's `Host`.
   */
  publicUrl(): string;
  webhooks: WebhookService;
  /** The operator API's tokens, audit and roles (docs/operator.md). */
  operators: OperatorService;
  /** Wallets the operator suspended (docs/operator.md#suspension). */
  suspensions: WalletSuspensions;
  /** The server's public setup, `GET /meta`. */
  meta: ServerMeta;
  /** The operator's plans and each wallet's (docs/plans.md). */
  plans: PlanStore;
}

/** Long-lived things a request needs, built once by `createApp`. */
export interface Services {
  database: Database;
  env: Env;
  logger: Logger;
  verification: VerificationServices;
  /** `TRUSTED_PROXIES`: whose `X-Forwarded-For` names the client. */
  trustedProxies: TrustedProxies;
  /** What the procedures' context holds. */
  procedures: ProcedureServices;
  /** Encrypts and decrypts webhook signing secrets at rest (webhooks/encryption-key.ts). */
  webhooksKey: Buffer;
}

/** A procedure's context: the services, and the bearer token of the request (null when absent). */
export interface Context extends ProcedureServices {
  bearerToken: string | null;
  /**
   * The client's address (see `clientAddress` in @keyport/node-edge), undefined when unknown. A function
   * so that requests which never need it (every verification) never pay for it.
   */
  clientIp(): string | undefined;
  /** The request's `User-Agent` header as sent (a sign-in records it bounded), undefined when absent. */
  userAgent: string | undefined;
  /** The request's `X-Request-Id`, for the log lines a procedure writes about it. */
  requestId: string;
  /** Fires at the request's deadline (`REQUEST_DEADLINE_MS`); set by `publicProcedure`. */
  deadline?: { readonly aborted: boolean };
  /** Every call of the tRPC request this one came in (a batch shares one list); absent on REST. */
  batchCalls?: readonly BatchCall[];
  /** A request header's value (the first when repeated), undefined when absent. */
  requestHeader(name: string): string | undefined;
  /** Sets a header on the answer, whatever its status (the top-up's PAYMENT-REQUIRED and PAYMENT-RESPONSE). */
  setResponseHeader(name: string, value: string): void;
}

/** Inputs of `createContextInner`: what a request carries, already extracted. */
export interface CreateContextInnerOptions {
  services: ProcedureServices;
  /** The bearer token from `Authorization`, or null when absent. */
  bearerToken: string | null;
  /** The client's address; unknown when absent. */
  clientIp?: () => string | undefined;
  /** The request's `User-Agent`; none when absent. */
  userAgent?: string;
  /** The request's id; a fresh one when absent (a test or a call without HTTP). */
  requestId?: string;
  /** The calls of the tRPC request, when there is one. */
  batchCalls?: readonly BatchCall[];
}

/** Builds a context without any HTTP object, so tests and the REST mapping can call procedures directly. */
export function createContextInner({
  services,
  bearerToken,
  clientIp = () => undefined,
  userAgent,
  requestId = acceptRequestId(undefined),
  batchCalls,
}: CreateContextInnerOptions): Context {
  return {
    ...services,
    bearerToken,
    clientIp,
    userAgent,
    requestId,
    ...(batchCalls === undefined ? {} : { batchCalls }),
    requestHeader: () => undefined,
    setResponseHeader: () => undefined,
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function readBearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * The adapter-facing context: reads the bearer token and (when asked) the client's address from the
 * request; `requestId` is the one the handler gave the request (see http/handler.ts).
 */
export function createContext(
  services: Services,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string = acceptRequestId(undefined),
  batchCalls?: readonly BatchCall[],
): Context {
  // Built as one literal (every request of every procedure pays for it): the same context as
  // `createContextInner` makes, without its defaults and conditional spread.
  const context: Context = {
    ...services.procedures,
    bearerToken: readBearerToken(req),
    clientIp: () => requestClientAddress(req, services.trustedProxies),
    userAgent: req.headers["user-agent"],
    requestId,
    requestHeader: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    setResponseHeader: (name, value) => {
      if (!res.headersSent) res.setHeader(name, value);
    },
  };
  if (batchCalls !== undefined) context.batchCalls = batchCalls;
  return context;
}
