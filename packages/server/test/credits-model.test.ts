import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BalanceChange } from "../src/credits/balance-writer.js";
import { shardOf } from "../src/credits/layout.js";
import { refillPeriodStart } from "../src/keys/refill-period.js";
import type { CreditsRefill } from "../src/schemas/key-policy.js";
import { useCreditsWorld } from "./support/credits-redis.js";
import { TEST_DATABASE_URL } from "./support/databases.js";
import { propertyRuns } from "./support/tier.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const START = Date.parse("2026-01-30T20:00:00Z");
const HOUR = 3_600_000;

/**
 * The whole truth of one balance, both pools: what every store must answer, and PostgreSQL must
 * hold after a drain. `balance` is the allowance (refills and PATCH set it), `purchased` the
 * purchased credits (top-ups add to them); a spend takes the allowance first.
 */
interface Model {
  balance: number;
  purchased: number;
  refill: CreditsRefill | null;
  refilledAt: number | null;
}

function refillDue(model: Model, now: number): void {
  if (model.refill === null || model.refilledAt === null) return;
  const period = refillPeriodStart(model.refill.interval, now).getTime();
  if (model.refilledAt < period) {
    model.balance = model.refill.amount;
    model.refilledAt = period;
  }
}

/** Spends `cost` from the model when both pools hold it, the allowance first; whether it did. */
function spendModel(model: Model, cost: number): boolean {
  if (model.balance + model.purchased < cost) return false;
  const fromAllowance = Math.min(cost, model.balance);
  model.balance -= fromAllowance;
  model.purchased -= cost - fromAllowance;
  return true;
}

/** What a store answers for the model: the sum, and the purchased part. */
const shownBy = (model: Model) => ({
  remaining: model.balance + model.purchased,
  purchased: model.purchased,
});

const refillRule = fc.option(
  fc.record({
    interval: fc.constantFrom<"daily" | "monthly">("daily", "monthly"),
    amount: fc.integer({ min: 0, max: 10 }),
  }),
  { nil: null },
);

const command = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("burst" as const),
      count: fc.integer({ min: 2, max: 8 }),
      cost: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    // One store's spends and reads asked in one tick, some at later times: one script call after the first.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("batch" as const),
      store: fc.integer({ min: 0, max: 1 }),
      ops: fc.array(
        fc.record({
          read: fc.boolean(),
          cost: fc.integer({ min: 0, max: 5 }),
          hours: fc.integer({ min: 0, max: 30 }),
        }),
        { minLength: 2, maxLength: 8 },
      ),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("spend" as const),
      store: fc.integer({ min: 0, max: 1 }),
      cost: fc.integer({ min: 0, max: 5 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("clock" as const),
      hours: fc.integer({ min: 1, max: 24 * 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      remaining: fc.integer({ min: 0, max: 20 }),
      refill: refillRule,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("add" as const), amount: fc.integer({ min: 1, max: 10 }) }),
  },
  {
    // A top-up whose change committed but was never installed (the process died): the fence expires.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("addNeverInstalled" as const),
      amount: fc.integer({ min: 1, max: 10 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drain" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("dropHash" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drainWithoutTrim" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("changeNeverInstalled" as const),
      remaining: fc.integer({ min: 0, max: 20 }),
    }),
  },
);

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)("credits in Redis against a model of the balance", () => {
  const world = useCreditsWorld(TEST_DATABASE_URL ?? "", TEST_REDIS_URL ?? "");

  it("admits a spend exactly when the model holds its cost, both pools, through batches, refills, top-ups, changes, drains and crashes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        refillRule,
        fc.array(command, { maxLength: 40 }),
        async (start, startPurchased, refill, commands) => {
          const w = world();
          let now = START;
          const id = await w.balance(start, refill, now, startPurchased);
          const model: Model = {
            balance: start,
            purchased: startPurchased,
            refill,
            refilledAt: refill === null ? null : refillPeriodStart(refill.interval, now).getTime(),
          };
          const stores = [w.store(), w.store()];
          const writer = w.writer();
          const change = async (balanceChange: BalanceChange, install = true) => {
            await w.change(writer, id, balanceChange, now, { install });
            if (!install) await w.redis.del(w.layout.fence(id)); // the fence's TTL ran out
          };
          for (const step of commands) {
            switch (step.kind) {
              case "spend": {
                refillDue(model, now);
                const admitted = spendModel(model, step.cost);
                const answer = await stores[step.store]?.spend(id, step.cost, now);
                expect(answer).toMatchObject({ ok: admitted, ...shownBy(model) });
                break;
              }
              case "burst": {
                // Concurrent spends from both stores: exactly as many admitted as the balance holds.
                // Whatever their order, the k-th admitted spend leaves the same two pools.
                refillDue(model, now);
                const answers = await Promise.all(
                  Array.from({ length: step.count }, (_, i) => stores[i % 2]?.spend(id, step.cost, now)),
                );
                const expected = [];
                for (let i = 0; i < step.count && spendModel(model, step.cost); i++)
                  expected.push(shownBy(model));
                const left = answers
                  .filter((answer) => answer?.ok)
                  .map((answer) => ({
                    remaining: answer?.remaining ?? 0,
                    purchased: answer?.purchased ?? 0,
                  }));
                expect(left.sort((x, y) => y.remaining - x.remaining)).toEqual(expected);
                break;
              }
              case "batch": {
                // Answered in the order asked, each at its own time, as if alone. A spend of 0
                // reads: it applies no refill. Time moves on to the latest operation's.
                const store = stores[step.store];
                const answers = await Promise.all(
                  step.ops.map((op) => {
                    const at = now + op.hours * HOUR;
                    return op.read ? store?.read(id, op.cost, at) : store?.spend(id, op.cost, at);
                  }),
                );
                for (const [i, op] of step.ops.entries()) {
                  const at = now + op.hours * HOUR;
                  if (op.read || op.cost === 0) {
                    const seen = { ...model };
                    refillDue(seen, at);
                    const holds = seen.balance + seen.purchased >= op.cost;
                    expect(answers[i]).toMatchObject({ ok: holds, ...shownBy(seen) });
                  } else {
                    refillDue(model, at);
                    const admitted = spendModel(model, op.cost);
                    expect(answers[i]).toMatchObject({ ok: admitted, ...shownBy(model) });
                  }
                }
                now += Math.max(...step.ops.map((op) => op.hours)) * HOUR;
                break;
              }
              case "clock":
                now += step.hours * HOUR;
                break;
              case "set":
                await change({ kind: "set", input: { remaining: step.remaining, refill: step.refill } });
                model.balance = step.remaining;
                model.refill = step.refill;
                model.refilledAt =
                  step.refill === null ? null : refillPeriodStart(step.refill.interval, now).getTime();
                break;
              case "add":
              case "addNeverInstalled":
                await change({ kind: "add", amount: step.amount }, step.kind === "add");
                refillDue(model, now);
                model.purchased += step.amount;
                break;
              case "drain":
                await w.drainer().drainAll();
                break;
              case "dropHash":
                await w.redis.del(w.layout.balance(id));
                break;
              case "drainWithoutTrim":
                await w.drainer().drainShard(shardOf(id), { trim: false });
                break;
              case "changeNeverInstalled":
                await change(
                  { kind: "set", input: { remaining: step.remaining, refill: model.refill } },
                  false,
                );
                model.balance = step.remaining;
                model.refilledAt =
                  model.refill === null ? null : refillPeriodStart(model.refill.interval, now).getTime();
                break;
            }
          }
          refillDue(model, now);
          expect(await stores[0]?.read(id, 0, now)).toMatchObject(shownBy(model));
          await w.drainer().drainAll();
          expect(await w.drainer().pending()).toBe(0);
          // PostgreSQL after a full drain: the model's balance (a refill due now is what the API shows).
          const stored = await w.stored(id);
          const shown = { ...model };
          const rowModel: Model = {
            balance: stored.remaining,
            purchased: stored.purchased,
            refill: model.refill,
            refilledAt: stored.refilledAt?.getTime() ?? null,
          };
          refillDue(rowModel, now);
          expect({
            balance: rowModel.balance,
            purchased: stored.purchased,
            refilledAt: rowModel.refilledAt,
          }).toEqual({
            balance: shown.balance,
            purchased: shown.purchased,
            refilledAt: shown.refilledAt,
          });
        },
      ),
      { numRuns: propertyRuns({ fast: 12, slow: 60 }) },
    );
  });
});
