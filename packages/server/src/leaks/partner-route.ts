import { TRPCError } from "@trpc/server";
import { sendJson } from "../http/errors.js";
import { readRawBody } from "../http/raw-body.js";
import type { RawRoute } from "../http/raw-route.js";
import type { LeakMetrics } from "../metrics/leaks.js";
import type { LeakService } from "./leak-service.js";
import { parseJsonBody } from "./parse-json.js";
import { feedbackFor, LEAK_BODY_BYTES, partnerReport } from "./partner-report.js";
import { isSignedBy } from "./signature.js";
import type { SigningKeySet } from "./signing-keys.js";

export interface PartnerRouteOptions {
  /** `github` or `gitlab`: the metrics' source, the `source` prefix stored, and the headers' prefix. */
  partner: "github" | "gitlab";
  /** The partner's signing keys; null when not configured (the route answers 501). */
  keys: SigningKeySet | null;
  leaks: LeakService;
  metrics: LeakMetrics;
}

const PARTNER_NAMES = { github: "GitHub", gitlab: "GitLab" } as const;

/**
 * `POST /leaks/github` and `POST /leaks/gitlab` (docs/leaks.md): the body is read once as bytes, its
 * signature (`<Partner>-Public-Key-Identifier`, `<Partner>-Public-Key-Signature`) checked against the
 * partner's published keys, then parsed; every token that is a Keyport key is revoked and the answer
 * is the feedback array. A missing or bad signature or an unknown identifier is 401 and revokes nothing;
 * keys that could never be fetched, 503.
 */
export function createPartnerRoute(options: PartnerRouteOptions): RawRoute {
  const { partner, keys, leaks, metrics } = options;
  const identifierHeader = `${partner}-public-key-identifier`;
  const signatureHeader = `${partner}-public-key-signature`;
  const refuse = (
    outcome: "unauthorized" | "invalid" | "unavailable" | "not_configured",
    error: TRPCError,
  ) => {
    metrics.report(partner, outcome);
    return error;
  };
  return {
    maxBodyBytes: LEAK_BODY_BYTES,
    async handle(req, res) {
      if (keys === null) {
        req.resume();
        throw refuse(
          "not_configured",
          new TRPCError({
            code: "NOT_IMPLEMENTED",
            message: `${PARTNER_NAMES[partner]} reports are not configured`,
          }),
        );
      }
      const body = await readRawBody(req, LEAK_BODY_BYTES);
      const identifier = req.headers[identifierHeader];
      const signature = req.headers[signatureHeader];
      if (typeof identifier !== "string" || typeof signature !== "string") {
        throw refuse("unauthorized", unsigned());
      }
      const key = await keys.find(identifier);
      if (key === "unavailable") {
        throw refuse(
          "unavailable",
          new TRPCError({
            code: "SERVICE_UNAVAILABLE",
            message: "The signing keys cannot be fetched: try again later",
          }),
        );
      }
      if (key === "unknown" || !isSignedBy(key, signature, body)) throw refuse("unauthorized", unsigned());
      let report: ReturnType<typeof partnerReport.parse>;
      try {
        report = parseJsonBody(body, partnerReport);
      } catch (error) {
        metrics.report(partner, "invalid");
        throw error;
      }
      const outcome = await leaks.record(
        partner,
        report.map((match) => ({
          token: match.token,
          url: match.url ?? null,
          source: `${partner}:${match.source ?? "unknown"}`,
        })),
      );
      metrics.report(partner, "accepted");
      sendJson(res, 200, feedbackFor(report, outcome.known), { "cache-control": "no-store" });
    },
  };
}

function unsigned(): TRPCError {
  return new TRPCError({ code: "UNAUTHORIZED", message: "The report's signature does not verify" });
}
