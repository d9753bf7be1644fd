import { requestClientAddress, type TrustedProxies } from "@keyport/node-edge";
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
import type { SelfReportLimit } from "./self-report-limit.js";

/**
 * Every string inside `value`'s nested objects and arrays (TruffleHog posts
 * `{ "<detector>": { "<regex name>": ["<match>", ...] } }`, with whatever names the operator chose),
 * at most `max` of them.
 */
export function stringsIn(value: unknown, max: number): string[] {
  const found: string[] = [];
  const visit = (node: unknown) => {
    if (found.length >= max) return;
    if (typeof node === "string") found.push(node);
    else if (Array.isArray(node)) for (const item of node) visit(item);
    else if (typeof node === "object" && node !== null) for (const item of Object.values(node)) visit(item);
  };
  visit(value);
  return found;
}

/**
 * `POST /leaks/trufflehog`: TruffleHog's custom-detector verification. 200 when any string in the
 * body is a live key (TruffleHog then reports the secret as verified), else 403. Revokes nothing:
 * whoever runs TruffleHog may be scanning their own code (docs/leaks.md). Needs no content type.
 * Unauthenticated and up to 1,000 lookups a request: each client (`trustedProxies` name it) draws on
 * `limit` before the body is read, 429 with `Retry-After` past it.
 */
export function createTrufflehogRoute(
  leaks: LeakService,
  metrics: LeakMetrics,
  limit: SelfReportLimit,
  trustedProxies: TrustedProxies,
): RawRoute {
  return {
    maxBodyBytes: LEAK_BODY_BYTES,
    async handle(req, res) {
      const verdict = await limit.hit(requestClientAddress(req, trustedProxies));
      if (!verdict.allowed) {
        req.resume();
        metrics.report("trufflehog", "limited");
        throw new TRPCError({
          code: "TOO_MANY_REQUESTS",
          message: `Too many verification requests: try again in ${verdict.retryAfterSeconds} s`,
          cause: new RetryAfter(verdict.retryAfterSeconds),
        });
      }
      const body = await readRawBody(req, LEAK_BODY_BYTES);
      let candidates: string[];
      try {
        candidates = stringsIn(parseJsonBody(body, z.unknown()), MAX_REPORTED_TOKENS);
      } catch (error) {
        metrics.report("trufflehog", "invalid");
        throw error;
      }
      const live = await leaks.anyLive(candidates);
      metrics.report("trufflehog", "accepted");
      metrics.tokens("trufflehog", live ? "live" : "not_live", 1);
      if (!live) throw new TRPCError({ code: "FORBIDDEN", message: "Not a live key" });
      sendJson(res, 200, { verified: true }, { "cache-control": "no-store" });
    },
  };
}
