import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { operatorTokens } from "../db/schema/index.js";
import { recordOperatorEvent } from "./audit.js";
import { hashOperatorToken, isOperatorToken } from "./token-secret.js";

/** A token a leak report names, with where it was found. */
export interface ReportedToken {
  token: string;
  url: string | null;
  source: string;
}

/**
 * Revokes every operator token among `reports` (docs/operator.md#tokens: leak reports revoke operator
 * tokens as they revoke keys) and records `token.leaked` in the operator trail, the first time each is
 * reported; a token reported before records nothing. Strings that are not well-formed operator tokens
 * never reach the database.
 * @returns the hashes of the reported strings that are or were operator tokens, and how many this call revoked.
 */
export async function recordOperatorTokenLeaks(
  db: Db,
  keyPrefix: string,
  reports: readonly ReportedToken[],
  now: Date,
): Promise<{ known: Set<string>; revoked: number }> {
  const byHash = new Map<string, ReportedToken>();
  for (const report of reports) {
    if (!isOperatorToken(report.token, keyPrefix)) continue;
    const hash = hashOperatorToken(report.token);
    if (!byHash.has(hash)) byHash.set(hash, report);
  }
  if (byHash.size === 0) return { known: new Set(), revoked: 0 };
  const found = await db
    .select({ hash: operatorTokens.hash })
    .from(operatorTokens)
    .where(inArray(operatorTokens.hash, [...byHash.keys()]));
  const known = new Set(found.map((row) => row.hash));
  let revoked = 0;
  for (const hash of known) {
    const report = byHash.get(hash);
    if (report === undefined) continue;
    await db.transaction(async (tx) => {
      // `leak_reported_at is null` under the row lock: of two reports racing, one records.
      const [row] = await tx
        .update(operatorTokens)
        .set({ revokedAt: now, leakReportedAt: now, leakSource: report.source, leakUrl: report.url })
        .where(and(eq(operatorTokens.hash, hash), isNull(operatorTokens.leakReportedAt)))
        .returning({ id: operatorTokens.id, name: operatorTokens.name });
      if (!row) return;
      await recordOperatorEvent(tx, {
        actor: { type: "leak_report", source: report.source },
        action: "token.leaked",
        at: now,
        changes: { id: row.id, name: row.name, source: report.source, url: report.url },
      });
      revoked++;
    });
  }
  return { known, revoked };
}

/** Whether any of `candidates` is a live operator token (TruffleHog's verification); reads only. */
export async function anyLiveOperatorToken(
  db: Db,
  keyPrefix: string,
  candidates: readonly string[],
  now: Date,
): Promise<boolean> {
  const hashes = [...new Set(candidates.filter((c) => isOperatorToken(c, keyPrefix)).map(hashOperatorToken))];
  if (hashes.length === 0) return false;
  const [row] = await db
    .select({ id: operatorTokens.id })
    .from(operatorTokens)
    .where(
      and(
        inArray(operatorTokens.hash, hashes),
        isNull(operatorTokens.revokedAt),
        or(isNull(operatorTokens.expiresAt), gt(operatorTokens.expiresAt, now)),
      ),
    )
    .limit(1);
  return row !== undefined;
}
