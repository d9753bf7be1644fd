import { MAX_BATCH_USAGE_CELLS } from "../../usage/batch-cost.js";
import { MAX_BUCKETS, MAX_RANGE_DAYS } from "../../usage/series.js";

/** The OpenAPI descriptions of routers/usage.ts's operations, by procedure (docs/api.md says the same for people). */
export const usageDescriptions = {
  get: `Counts every verification of the wallet's keys by outcome: totals, one row per key with usage (plus \`keyId\` when filtered) and a zero-filled series with one entry per bucket. \`from\` is inclusive, \`to\` exclusive (default: the last 30 days); both are widened to whole UTC buckets of \`granularity\` (hour or day, default day) and the answer carries the widened range. At most ${MAX_RANGE_DAYS} days and ${MAX_BUCKETS} buckets, else 400; over tRPC, the usage queries of one batch may ask for at most ${MAX_BATCH_USAGE_CELLS} buckets × keys together (an unfiltered query counts every key of the wallet), else each is 400. Another wallet is 403; a \`keyId\` that is not this wallet's is 404. Counts are written from an in-memory buffer every USAGE_FLUSH_INTERVAL_MS (default 1 s), so the latest second may not show yet.`,
} as const;
