import type { LimitVerdict } from "@keyport/node-edge";
import type { Db } from "../db/database.js";
import { hashKey } from "../keys/secret.js";
import type { LeakMetrics, LeakReportSource } from "../metrics/leaks.js";
import { anyLiveOperatorToken, recordOperatorTokenLeaks } from "../operator/token-leaks.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { anyLiveKey } from "./find-live.js";
import { type LeakedToken, type LeakOutcome, recordLeaks } from "./record-leaks.js";
import type { SelfReportLimit } from "./self-report-limit.js";

/** Leak reports as the routes and the self-report procedure use them. */
export interface LeakService {
  /**
   * Revokes the keys and operator tokens among `tokens` and records their leak (record-leaks.ts,
   * operator/token-leaks.ts); counts the tokens.
   */
  record(source: LeakReportSource, tokens: readonly LeakedToken[]): Promise<LeakOutcome>;
  /** Whether any string is a live key or operator token (TruffleHog's verification); reads only. */
  anyLive(candidates: readonly string[]): Promise<boolean>;
  /**
   * A key's holder reports it: counted against the client's limit first (refused: nothing else
   * happens), then revoked like any leak, with `{ url: null, source: "self-report" }`.
   */
  selfReport(key: string, clientIp: string | undefined): Promise<LimitVerdict>;
}

export interface LeakServiceOptions {
  db: Db;
  changes: KeyChanges;
  /** KEY_PREFIX: only well-formed keys of it are looked up. */
  prefix: string;
  selfReportLimit: SelfReportLimit;
  metrics: LeakMetrics;
}

/** The leak service over the database. */
export function createLeakService(options: LeakServiceOptions): LeakService {
  const { db, changes, prefix, metrics } = options;
  const record: LeakService["record"] = async (source, tokens) => {
    const now = new Date();
    const keys = await recordLeaks(db, changes, prefix, tokens, now);
    // Operator tokens (`<prefix>o_`) leak as keys do, and are revoked as keys are (docs/operator.md#tokens).
    const operator = await recordOperatorTokenLeaks(db, prefix, tokens, now);
    const outcome: LeakOutcome = {
      known: new Set([...keys.known, ...operator.known]),
      revoked: keys.revoked + operator.revoked,
      recorded: keys.recorded + operator.revoked,
    };
    const falsePositives = tokens.filter((t) => !outcome.known.has(hashKey(t.token))).length;
    metrics.tokens(source, "revoked", outcome.revoked);
    metrics.tokens(source, "recorded", outcome.recorded - outcome.revoked);
    metrics.tokens(source, "known", tokens.length - falsePositives - outcome.recorded);
    metrics.tokens(source, "false_positive", falsePositives);
    return outcome;
  };
  return {
    record,
    anyLive: async (candidates) => {
      const now = new Date();
      return (
        (await anyLiveKey(db, prefix, candidates, now)) ||
        (await anyLiveOperatorToken(db, prefix, candidates, now))
      );
    },
    async selfReport(key, clientIp) {
      const verdict = await options.selfReportLimit.hit(clientIp);
      if (!verdict.allowed) {
        metrics.report("self-report", "limited");
        return verdict;
      }
      await record("self-report", [{ token: key, url: null, source: "self-report" }]);
      metrics.report("self-report", "accepted");
      return verdict;
    },
  };
}
