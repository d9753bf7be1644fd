import { usageInput } from "../schemas/usage.js";
import { DEFAULT_RANGE_MS, resolveUsageRange } from "./series.js";

/** Most buckets × keys the `usage.get` calls of one tRPC batch may ask for together (docs/decisions.md, "Batched usage"). */
export const MAX_BATCH_USAGE_CELLS = 50_000;

/** One call of a tRPC request, as tRPC's `TRPCRequestInfo` lists it. */
export interface BatchCall {
  path: string;
  getRawInput(): Promise<unknown>;
}

const USAGE_PATH = "usage.get";

// One total per request: every usage.get call of a batch asks, and they share tRPC's list of calls.
const totals = new WeakMap<readonly BatchCall[], Promise<number>>();

/**
 * Buckets × keys the `usage.get` calls of a batch ask for together: a call filtered by `keyId` counts
 * its buckets once, an unfiltered one its buckets times the wallet's keys (`countKeys`). A call
 * whose input is invalid, or that names another wallet than the session's, counts nothing (it fails
 * on its own, and another wallet's key count must not show through). Computed once per batch.
 * @example if ((await batchUsageCells(calls, ctx.wallet, countKeys)) > MAX_BATCH_USAGE_CELLS) throw ...
 */
export function batchUsageCells(
  calls: readonly BatchCall[],
  sessionWallet: string,
  countKeys: (wallet: string) => Promise<number>,
): Promise<number> {
  const known = totals.get(calls);
  if (known !== undefined) return known;
  const total = sumCells(calls, sessionWallet, countKeys);
  totals.set(calls, total);
  return total;
}

async function sumCells(
  calls: readonly BatchCall[],
  sessionWallet: string,
  countKeys: (wallet: string) => Promise<number>,
): Promise<number> {
  let keyCount: Promise<number> | undefined;
  let total = 0;
  for (const call of calls) {
    if (call.path !== USAGE_PATH) continue;
    const parsed = usageInput.safeParse(await call.getRawInput());
    if (!parsed.success) continue;
    const { wallet, keyId, granularity } = parsed.data;
    const to = parsed.data.to ?? new Date();
    const from = parsed.data.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    const resolved = resolveUsageRange(from, to, granularity);
    if (!resolved.ok || wallet !== sessionWallet) continue;
    let keys = 1;
    if (keyId === undefined) {
      keyCount ??= countKeys(wallet);
      keys = Math.max(1, await keyCount);
    }
    total += resolved.range.buckets * keys;
  }
  return total;
}

/** True when the request carries more than one `usage.get` call: one alone is bounded by `MAX_BUCKETS`. */
export function isUsageBatch(calls: readonly BatchCall[] | undefined): calls is readonly BatchCall[] {
  return calls !== undefined && calls.filter((call) => call.path === USAGE_PATH).length > 1;
}
