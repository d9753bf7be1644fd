import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import type { RawQuery } from "../db/raw.js";
import { apiKeys } from "../db/schema/index.js";
import type { RecentVerification } from "../schemas/key-verifications.js";
import type { Usage } from "../schemas/usage.js";
import { parseUsageSums, USAGE_SUMS_SQL, usageSumsParams } from "./query.js";
import { readRecentVerifications } from "./read-recent.js";
import { buildUsageFromSums, type UsageRange } from "./series.js";

/** Reads a wallet's usage from the hourly and daily rollups. */
export interface UsageReader {
  /**
   * The wallet's usage over a resolved range, for all its keys or only `keyId`.
   * @returns null when `keyId` is not one of the wallet's keys.
   */
  read(params: { wallet: string; range: UsageRange; keyId: string | null }): Promise<Usage | null>;
  /** How many keys the wallet has, whatever their status (an unfiltered read covers them all). */
  countKeys(wallet: string): Promise<number>;
  /**
   * The key's recent verifications, newest first (usage/read-recent.ts).
   * @returns null when `keyId` is not one of the wallet's keys.
   */
  recentVerifications(wallet: string, keyId: string): Promise<RecentVerification[] | null>;
}

/** The usage reader over the database: drizzle for the key check, raw SQL for the rollup read. */
export function createUsageReader(db: Db, rawQuery: RawQuery): UsageReader {
  return {
    async read({ wallet, range, keyId }) {
      let include: { keyId: string; name: string }[] = [];
      if (keyId !== null) {
        // A filtered key shows even without usage, so it must be this wallet's.
        const [key] = await db
          .select({ keyId: apiKeys.id, name: apiKeys.name })
          .from(apiKeys)
          .where(and(eq(apiKeys.id, keyId), eq(apiKeys.wallet, wallet)))
          .limit(1);
        if (!key) return null;
        include = [key];
      }
      const sums = parseUsageSums(
        await rawQuery(USAGE_SUMS_SQL[range.granularity], usageSumsParams(wallet, range, keyId)),
      );
      return buildUsageFromSums({ wallet, range, ...sums, include });
    },
    async countKeys(wallet) {
      return db.$count(apiKeys, eq(apiKeys.wallet, wallet));
    },
    recentVerifications: (wallet, keyId) => readRecentVerifications(db, wallet, keyId),
  };
}
