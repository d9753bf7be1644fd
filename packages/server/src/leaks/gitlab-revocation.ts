import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createWindowLimit, type RateLimiter } from "@keyport/node-edge";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { sendJson } from "../http/errors.js";
import { readRawBody } from "../http/raw-body.js";
import type { RawRoute } from "../http/raw-route.js";
import type { LeakMetrics } from "../metrics/leaks.js";
import { RetryAfter } from "../ratelimit/retry-after.js";
import type { LeakService } from "./leak-service.js";
import { parseJsonBody } from "./parse-json.js";
import { LEAK_BODY_BYTES, MAX_REPORTED_TOKENS } from "./partner-report.js";

/**
 * The one token type this service revokes: GitLab names a type by the secrets analyzer's rule
 * (`gitleaks_rule_id` + the rule id), and the gitleaks rule `leak-rules` prints has id `keyport_api_key`.
 */
export const GITLAB_TOKEN_TYPE = "gitleaks_rule_id_keyport_api_key";

/** Requests per minute the revocation endpoint takes (its spec asks for a rate limit); past it 429. */
export const GITLAB_REVOCATION_LIMIT = { limit: 120, windowSeconds: 60 };

const revokeTokensBody = z
  .array(
    z.object({
      type: z.string().max(256),
      token: z.string().max(4_096),
      location: z.string().max(4_096).nullish(),
    }),
  )
  .max(MAX_REPORTED_TOKENS);

export interface GitlabRevocationOptions {
  /** LEAKS_GITLAB_TOKEN; undefined: both routes answer 501. */
  token: string | undefined;
  leaks: LeakService;
  metrics: LeakMetrics;
  /** Where the requests are counted (in-process, or Redis shared by every instance). */
  store: RateLimiter;
}

/**
 * GitLab's Token Revocation API for self-managed GitLab (docs/leaks.md):
 * `GET /leaks/gitlab/v1/revocable_token_types` answers `{ types }`, `POST /leaks/gitlab/v1/revoke_tokens`
 * revokes the keys among `[{ type, token, location }]` and answers 204; 400 for a bad body or a type
 * not in `types`, 429 past `GITLAB_REVOCATION_LIMIT`. Both take `Authorization: <token>` (its spec) or
 * `Bearer <token>`; missing or wrong: 401.
 */
export function createGitlabRevocationRoutes(options: GitlabRevocationOptions): {
  types: RawRoute;
  revoke: RawRoute;
} {
  const { leaks, metrics } = options;
  const expected = options.token === undefined ? undefined : digest(options.token);
  const limit = createWindowLimit(options.store, { name: "gitlab-revoke", ...GITLAB_REVOCATION_LIMIT });
  const authorise = (req: IncomingMessage) => {
    if (expected === undefined) {
      req.resume();
      metrics.report("gitlab-revocation", "not_configured");
      throw new TRPCError({ code: "NOT_IMPLEMENTED", message: "GitLab token revocation is not configured" });
    }
    const given = presentedToken(req.headers.authorization);
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      req.resume();
      metrics.report("gitlab-revocation", "unauthorized");
      throw new TRPCError({ code: "UNAUTHORIZED", message: "Missing or wrong token" });
    }
  };
  return {
    types: {
      maxBodyBytes: LEAK_BODY_BYTES,
      async handle(req, res) {
        authorise(req);
        req.resume();
        sendJson(res, 200, { types: [GITLAB_TOKEN_TYPE] }, { "cache-control": "no-store" });
      },
    },
    revoke: {
      maxBodyBytes: LEAK_BODY_BYTES,
      async handle(req, res) {
        authorise(req);
        const verdict = await limit.hit("gitlab");
        if (!verdict.allowed) {
          req.resume();
          metrics.report("gitlab-revocation", "limited");
          throw new TRPCError({
            code: "TOO_MANY_REQUESTS",
            message: `Too many revocation requests: try again in ${verdict.retryAfterSeconds} s`,
            cause: new RetryAfter(verdict.retryAfterSeconds),
          });
        }
        const body = await readRawBody(req, LEAK_BODY_BYTES);
        let tokens: z.output<typeof revokeTokensBody>;
        try {
          tokens = parseJsonBody(body, revokeTokensBody);
          if (tokens.some((entry) => entry.type !== GITLAB_TOKEN_TYPE)) {
            throw new TRPCError({
              code: "BAD_REQUEST",
              message: `The only revocable type is ${GITLAB_TOKEN_TYPE}`,
            });
          }
        } catch (error) {
          metrics.report("gitlab-revocation", "invalid");
          throw error;
        }
        await leaks.record(
          "gitlab-revocation",
          tokens.map((entry) => ({ token: entry.token, url: entry.location ?? null, source: "gitlab" })),
        );
        metrics.report("gitlab-revocation", "accepted");
        res.writeHead(204, { "cache-control": "no-store" });
        res.end();
      },
    },
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of `Authorization: <token>` or `Authorization: Bearer <token>`. */
function presentedToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const bearer = BEARER.exec(header)?.[1];
  const token = bearer ?? header.trim();
  return token.length > 0 ? token : undefined;
}

/** Equal-length digests, so comparing them takes the same time whatever was presented. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
