import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createUsageBuffer, type UsageBatch, type UsageBuffer } from "./buffer.js";
import { USAGE_OUTCOMES } from "./outcome.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const W = "0x000000000000000000000000000000000000dEaD";

const open: UsageBuffer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((b) => b.close().catch(() => undefined)));
});

function collectingSink() {
  const batches: UsageBatch[] = [];
  return {
    batches,
    sink: async (batch: UsageBatch) => {
      batches.push(batch);
    },
    total(keyId?: string, outcome?: string) {
      return batches
        .flatMap((b) => b.counts)
        .filter(
          (r) =>
            (keyId === undefined || r.keyId === keyId) && (outcome === undefined || r.outcome === outcome),
        )
        .reduce((sum, r) => sum + r.count, 0);
    },
  };
}

function buffer(options: Parameters<typeof createUsageBuffer>[0]): UsageBuffer {
  const b = createUsageBuffer({ flushIntervalMs: 60_000, ...options });
  open.push(b);
  return b;
}

describe("usage buffer", () => {
  it("writes one row per key, hour and outcome with the exact counts", async () => {
    const out = collectingSink();
    const usage = buffer({ sink: out.sink });
    expect(usage.record("key_a", W, "VALID", T0)).toBeUndefined();
    usage.record("key_a", W, "VALID", T0 + 1);
    usage.record("key_a", W, "RATE_LIMITED", T0 + H - 1);
    usage.record("key_a", W, "VALID", T0 + H);
    usage.record("key_b", W, "REVOKED", T0);
    await usage.flush();
    const rows = out.batches.flatMap((b) => b.counts);
    expect(rows).toHaveLength(4);
    expect(rows).toContainEqual({
      keyId: "key_a",
      wallet: W,
      hour: new Date(T0),
      outcome: "VALID",
      count: 2,
    });
    expect(rows).toContainEqual({
      keyId: "key_a",
      wallet: W,
      hour: new Date(T0),
      outcome: "RATE_LIMITED",
      count: 1,
    });
    expect(rows).toContainEqual({
      keyId: "key_a",
      wallet: W,
      hour: new Date(T0 + H),
      outcome: "VALID",
      count: 1,
    });
    expect(rows).toContainEqual({
      keyId: "key_b",
      wallet: W,
      hour: new Date(T0),
      outcome: "REVOKED",
      count: 1,
    });
    expect(usage.pendingRows).toBe(0);
  });

  it("flushes on its interval", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const out = collectingSink();
    const usage = buffer({ sink: out.sink, flushIntervalMs: 20 });
    usage.record("key_a", W, "EXPIRED", T0);
    await vi.advanceTimersByTimeAsync(19);
    expect(out.total()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await expect.poll(() => out.total()).toBe(1);
  });

  it("flushes early once the pending rows reach the bound", async () => {
    const out = collectingSink();
    const usage = buffer({ sink: out.sink, maxPendingRows: 10 });
    for (let i = 0; i < 10; i++) usage.record(`key_${i}`, W, "VALID", T0);
    await expect.poll(() => out.total()).toBe(10);
  });

  it("keeps the rows of a failed flush and writes them with the next one", async () => {
    const out = collectingSink();
    let fail = true;
    const usage = buffer({
      sink: async (batch) => {
        if (fail) throw new Error("database unavailable");
        await out.sink(batch);
      },
    });
    usage.record("key_a", W, "VALID", T0);
    usage.record("key_a", W, "VALID", T0);
    await expect(usage.flush()).rejects.toThrow("database unavailable");
    usage.record("key_a", W, "VALID", T0);
    fail = false;
    await usage.flush();
    expect(out.total("key_a", "VALID")).toBe(3);
    expect(out.batches.flatMap((b) => b.lastUsed)).toEqual([{ keyId: "key_a", at: new Date(T0) }]);
  });

  it("retries a failed background flush on a later tick and reports the error", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const out = collectingSink();
    const errors: unknown[] = [];
    let calls = 0;
    const usage = buffer({
      flushIntervalMs: 20,
      onError: (e) => errors.push(e),
      sink: async (batch) => {
        calls++;
        if (calls === 1) throw new Error("transient");
        await out.sink(batch);
      },
    });
    usage.record("key_a", W, "VALID", T0);
    await vi.advanceTimersByTimeAsync(20);
    await expect.poll(() => errors).toHaveLength(1);
    expect(out.total()).toBe(0);
    await vi.advanceTimersByTimeAsync(20);
    await expect.poll(() => out.total()).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it("never runs two flushes at once", async () => {
    let active = 0;
    let maxActive = 0;
    let written = 0;
    const usage = buffer({
      sink: async (batch) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setImmediate(r)); // a write that spans a turn of the event loop
        written += batch.counts.reduce((s, r) => s + r.count, 0);
        active--;
      },
    });
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      usage.record("key_a", W, "VALID", T0);
      flushes.push(usage.flush());
    }
    await Promise.all(flushes);
    expect(maxActive).toBe(1);
    expect(written).toBe(20);
  });

  it("writes everything still pending on close, including what is counted during the final write", async () => {
    const out = collectingSink();
    let usage: UsageBuffer | undefined;
    usage = buffer({
      sink: async (batch) => {
        if (out.batches.length === 0) usage?.record("key_late", W, "VALID", T0);
        await new Promise((r) => setImmediate(r)); // a write that spans a turn of the event loop
        await out.sink(batch);
      },
    });
    usage.record("key_a", W, "VALID", T0);
    await usage.close();
    expect(out.total("key_a")).toBe(1);
    expect(out.total("key_late")).toBe(1);
  });

  it("writes a key's lastUsedAt at most once a minute", async () => {
    const out = collectingSink();
    const usage = buffer({ sink: out.sink });
    usage.record("key_a", W, "VALID", T0);
    usage.record("key_a", W, "VALID", T0 + 30_000);
    await usage.flush();
    usage.record("key_a", W, "VALID", T0 + 59_999);
    usage.record("key_a", W, "VALID", T0 + 60_000);
    usage.record("key_a", W, "VALID", T0 + 60_001);
    await usage.flush();
    expect(out.batches.map((b) => b.lastUsed)).toEqual([
      [{ keyId: "key_a", at: new Date(T0) }],
      [{ keyId: "key_a", at: new Date(T0 + 60_000) }],
    ]);
  });

  it("loses no count whatever the sink's failures (property)", async () => {
    const record = fc.record({
      key: fc.integer({ min: 0, max: 4 }),
      outcome: fc.constantFrom(...USAGE_OUTCOMES),
      at: fc.integer({ min: 0, max: 5 * H }),
      flushAfter: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { maxLength: 60 }),
        fc.array(fc.boolean(), { maxLength: 30 }),
        async (ops, fails) => {
          const out = collectingSink();
          let call = 0;
          const usage = createUsageBuffer({
            flushIntervalMs: 60_000,
            sink: async (batch) => {
              if (fails[call++] === true) throw new Error("flaky");
              await out.sink(batch);
            },
          });
          for (const op of ops) {
            usage.record(`key_${op.key}`, W, op.outcome, T0 + op.at);
            if (op.flushAfter) await usage.flush().catch(() => undefined);
          }
          for (let i = 0; i < 40; i++) {
            if (
              (await usage.close().then(
                () => true,
                () => false,
              )) === true
            )
              break;
          }
          for (const outcome of USAGE_OUTCOMES) {
            expect(out.total(undefined, outcome)).toBe(ops.filter((o) => o.outcome === outcome).length);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
