import { and, desc, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, usageDaily } from "../db/schema/index.js";
import { USAGE_OUTCOMES, type UsageOutcome } from "../usage/outcome.js";
import { addOutcome, type Counts, type UsageRange, zeroCounts } from "../usage/series.js";

/** How many wallets and keys the "top" lists hold. */
export const TOP_COUNT = 10;

const total = sql<number>`sum(${usageDaily.count})::bigint`.mapWith(Number);

function outcomeOf(value: string): UsageOutcome | null {
  return USAGE_OUTCOMES.find((outcome) => outcome === value) ?? null;
}

/** Counts per outcome for each id of `rows` (`id`, outcome, count), in `order`. */
function countsById(
  order: readonly string[],
  rows: readonly { id: string; outcome: string; count: number }[],
): Map<string, Counts> {
  const byId = new Map(order.map((id) => [id, zeroCounts()]));
  for (const row of rows) {
    const outcome = outcomeOf(row.outcome);
    const counts = byId.get(row.id);
    if (outcome !== null && counts !== undefined) addOutcome(counts, outcome, row.count);
  }
  return byId;
}

/**
 * The deployment's verifications over a range of whole UTC days, from the daily rollups: a zero-filled
 * series by day and outcome, the totals, and the wallets and keys with the most verifications (each with
 * its counts by outcome), most first (docs/operator.md#usage).
 */
export async function readDeploymentUsage(db: Db, range: UsageRange) {
  const inRange = and(gte(usageDaily.day, range.from), lt(usageDaily.day, range.to));
  const [byDay, topWallets, topKeys] = await Promise.all([
    db
      .select({ day: usageDaily.day, outcome: usageDaily.outcome, count: total })
      .from(usageDaily)
      .where(inRange)
      .groupBy(usageDaily.day, usageDaily.outcome),
    db
      .select({ id: usageDaily.wallet, count: total })
      .from(usageDaily)
      .where(inRange)
      .groupBy(usageDaily.wallet)
      .orderBy(desc(total), usageDaily.wallet)
      .limit(TOP_COUNT),
    db
      .select({ id: usageDaily.keyId, count: total })
      .from(usageDaily)
      .where(inRange)
      .groupBy(usageDaily.keyId)
      .orderBy(desc(total), usageDaily.keyId)
      .limit(TOP_COUNT),
  ]);
  const walletIds = topWallets.map((row) => row.id);
  const keyIds = topKeys.map((row) => row.id);
  const [walletOutcomes, keyOutcomes, keyNames] = await Promise.all([
    walletIds.length === 0
      ? []
      : db
          .select({ id: usageDaily.wallet, outcome: usageDaily.outcome, count: total })
          .from(usageDaily)
          .where(and(inRange, inArray(usageDaily.wallet, walletIds)))
          .groupBy(usageDaily.wallet, usageDaily.outcome),
    keyIds.length === 0
      ? []
      : db
          .select({ id: usageDaily.keyId, outcome: usageDaily.outcome, count: total })
          .from(usageDaily)
          .where(and(inRange, inArray(usageDaily.keyId, keyIds)))
          .groupBy(usageDaily.keyId, usageDaily.outcome),
    keyIds.length === 0
      ? []
      : db
          .select({ id: apiKeys.id, wallet: apiKeys.wallet, name: apiKeys.name })
          .from(apiKeys)
          .where(inArray(apiKeys.id, keyIds)),
  ]);

  const from = range.from.getTime();
  const series = Array.from({ length: range.buckets }, (_, i) => ({
    start: new Date(from + i * 86_400_000),
    ...zeroCounts(),
  }));
  const totals = zeroCounts();
  for (const row of byDay) {
    const outcome = outcomeOf(row.outcome);
    const bucket = series[(row.day.getTime() - from) / 86_400_000];
    if (outcome === null || bucket === undefined) continue;
    addOutcome(bucket, outcome, row.count);
    addOutcome(totals, outcome, row.count);
  }
  const wallets = countsById(walletIds, walletOutcomes);
  const keys = countsById(keyIds, keyOutcomes);
  const names = new Map(keyNames.map((key) => [key.id, key]));
  return {
    from: range.from,
    to: range.to,
    totals,
    series,
    topWallets: walletIds.map((wallet) => ({ wallet, ...(wallets.get(wallet) ?? zeroCounts()) })),
    topKeys: keyIds.map((keyId) => ({
      keyId,
      wallet: names.get(keyId)?.wallet ?? "",
      name: names.get(keyId)?.name ?? "",
      ...(keys.get(keyId) ?? zeroCounts()),
    })),
  };
}
