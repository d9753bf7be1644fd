import { and, inArray } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys } from "../db/schema/index.js";
import { hashKey, isWellFormedKey } from "../keys/secret.js";
import { statusCondition } from "../keys/status-condition.js";

/**
 * Whether any of `candidates` is a live (active) key of `prefix`, in one query; strings that are not
 * well-formed keys never reach the database. Reads only: nothing is revoked, no usage is counted.
 * @example await anyLiveKey(db, "kp", ["kp_...", "not a key"], new Date()) // true when the first is active
 */
export async function anyLiveKey(
  db: Db,
  prefix: string,
  candidates: readonly string[],
  now: Date,
): Promise<boolean> {
  const hashes = [...new Set(candidates.filter((c) => isWellFormedKey(c, prefix)).map(hashKey))];
  if (hashes.length === 0) return false;
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(inArray(apiKeys.hash, hashes), statusCondition("active", now)))
    .limit(1);
  return row !== undefined;
}
