import type { KeyCreditsRow } from "../db/schema/index.js";

/** The live balance of a credits id (Redis): the allowance, the purchased credits and the refill period; null when there is none. */
export type LiveCredits = (
  creditsId: string,
  atMs: number,
) => Promise<Pick<KeyCreditsRow, "remaining" | "purchased" | "refilledAt"> | null>;

/**
 * The rows with their live balance from Redis in place of PostgreSQL's, which lags by the drain
 * interval (docs/verifying-keys.md#credits-with-redis). One read per balance, all in flight at
 * once (one pipeline). When Redis cannot answer, PostgreSQL's values are shown: a key listing
 * stays up, and verification (which spends) answers 503 instead.
 */
export async function overlayLive(
  rows: Map<string, KeyCreditsRow>,
  live: LiveCredits | undefined,
  now: Date,
): Promise<Map<string, KeyCreditsRow>> {
  if (live === undefined || rows.size === 0) return rows;
  const entries = await Promise.all(
    [...rows].map(async ([id, row]): Promise<[string, KeyCreditsRow]> => {
      const current = await live(id, now.getTime()).catch(() => null);
      return [id, current === null ? row : { ...row, ...current }];
    }),
  );
  return new Map(entries);
}
