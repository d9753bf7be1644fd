import type { IncomingMessage } from "node:http";
import type { Logger } from "pino";
import type { SiweSettings } from "./auth/siwe.js";
import type { Database } from "./db/database.js";
import type { RawQuery } from "./db/raw.js";
import type { Env } from "./env.js";
import type { VerificationServices } from "./verify/services.js";

/** Long-lived things a request needs, built once by `createApp`. */
export interface Services {
  database: Database;
  env: Env;
  logger: Logger;
  siwe: SiweSettings;
  /** Raw SQL over the same connection pool, for the usage rollups. */
  rawQuery: RawQuery;
  verification: VerificationServices;
}

/** Inputs of `createContextInner`: what a request carries, already extracted. */
export interface CreateContextInnerOptions {
  services: Services;
  /** The bearer token from `Authorization`, or null when absent. */
  bearerToken: string | null;
}

/** Builds a context without any HTTP object, so tests and the REST mapping can call procedures directly. */
export function createContextInner({ services, bearerToken }: CreateContextInnerOptions) {
  return {
    db: services.database.db,
    env: services.env,
    logger: services.logger,
    siwe: services.siwe,
    rawQuery: services.rawQuery,
    keyCache: services.verification.cache,
    verifier: services.verification.verifier,
    bearerToken,
  };
}

export type Context = ReturnType<typeof createContextInner>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function readBearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/** The adapter-facing context: reads the bearer token from the request. */
export function createContext(services: Services, req: IncomingMessage): Context {
  return createContextInner({ services, bearerToken: readBearerToken(req) });
}
