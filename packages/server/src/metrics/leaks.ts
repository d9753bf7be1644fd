import { Counter, type Registry } from "prom-client";

/** Who sent a leak report. */
export type LeakReportSource = "github" | "gitlab" | "gitlab-revocation" | "trufflehog" | "self-report";

/**
 * What became of one report (a request): `accepted` (handled: tokens below), `unauthorized` (bad or
 * missing signature or token), `invalid` (a body that is not a report), `limited` (429), `unavailable`
 * (no signing keys could be fetched), `not_configured` (501).
 */
export type LeakReportOutcome =
  | "accepted"
  | "unauthorized"
  | "invalid"
  | "limited"
  | "unavailable"
  | "not_configured";

/** What became of one reported token: `revoked`, `recorded` (a key already revoked, leak recorded), `known` (reported before), `false_positive`, or for TruffleHog `live` / `not_live` per request. */
export type LeakTokenOutcome = "revoked" | "recorded" | "known" | "false_positive" | "live" | "not_live";

export interface LeakMetrics {
  report(source: LeakReportSource, outcome: LeakReportOutcome): void;
  tokens(source: LeakReportSource, outcome: LeakTokenOutcome, count: number): void;
}

/**
 * Creates `keyport_leak_reports_total{source,outcome}` (requests) and
 * `keyport_leak_tokens_total{source,outcome}` (the tokens of accepted reports), docs/metrics.md.
 */
export function createLeakMetrics(registry: Registry): LeakMetrics {
  const reports = new Counter({
    name: "keyport_leak_reports_total",
    help: "Leak reports received (requests), by who sent them and what became of them",
    labelNames: ["source", "outcome"],
    registers: [registry],
  });
  const tokens = new Counter({
    name: "keyport_leak_tokens_total",
    help: "Tokens of accepted leak reports, by who sent them and what became of them",
    labelNames: ["source", "outcome"],
    registers: [registry],
  });
  return {
    report: (source, outcome) => reports.inc({ source, outcome }),
    tokens: (source, outcome, count) => {
      if (count > 0) tokens.inc({ source, outcome }, count);
    },
  };
}
