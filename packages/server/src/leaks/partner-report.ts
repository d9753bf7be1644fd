import { z } from "zod";
import { hashKey } from "../keys/secret.js";

/** Most tokens one report may carry (docs/leaks.md); more is 400. */
export const MAX_REPORTED_TOKENS = 1_000;

/** The largest body a leak route reads (docs/decisions.md#the-servers-http-edge). */
export const LEAK_BODY_BYTES = 2 * 1024 * 1024;

/** One match as GitHub's secret scanning (and GitLab's) posts it. */
const reportedMatch = z.object({
  token: z.string().max(4_096),
  type: z.string().max(256),
  url: z.string().max(4_096).nullish(),
  source: z.string().max(256).nullish(),
});

/** A partner report's body: an array of matches, at most `MAX_REPORTED_TOKENS`. */
export const partnerReport = z.array(reportedMatch).max(MAX_REPORTED_TOKENS);

export type PartnerReport = z.infer<typeof partnerReport>;

/** GitHub's feedback for one token: `true_positive` for a token that is or was a Keyport key. */
export interface TokenFeedback {
  token_hash: string;
  token_type: string;
  label: "true_positive" | "false_positive";
}

/**
 * The feedback array, one entry per reported token in order; `token_hash` is the lowercase hex
 * SHA-256 of the token (the same digest Keyport stores), so the token never goes back.
 */
export function feedbackFor(report: PartnerReport, known: ReadonlySet<string>): TokenFeedback[] {
  return report.map((match) => {
    const tokenHash = hashKey(match.token);
    return {
      token_hash: tokenHash,
      token_type: match.type,
      label: known.has(tokenHash) ? "true_positive" : "false_positive",
    };
  });
}
