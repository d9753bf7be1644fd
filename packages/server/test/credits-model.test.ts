import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BalanceChange } from "../src/credits/balance-writer.js";
import { shardOf } from "../src/credits/layout.js";
import { refillPeriodStart } from "../src/keys/refill-period.js";
import type { CreditsRefill } from "../src/schemas/key-policy.js";
import { useCreditsWorld } from "./support/credits-redis.js";
import { TEST_DATABASE_URL } from "./support/databases.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const START = Date.parse("2026-01-30T20:00:00Z");
const HOUR = 3_600_000;

/** The whole truth of one balance: what every store must answer, and PostgreSQL must hold after a drain. */
interface Model {
  balance: number;
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

  it("admits a spend exactly when the model holds its cost, through refills, changes, drains and crashes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20 }),
        refillRule,
        fc.array(command, { maxLength: 40 }),
        async (start, refill, commands) => {
          const w = world();
          let now = START;
          const id = await w.balance(start, refill, now);
          const model: Model = {
            balance: start,
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
                const admitted = model.balance >= step.cost;
                if (admitted) model.balance -= step.cost;
                const answer = await stores[step.store]?.spend(id, step.cost, now);
                expect(answer).toMatchObject({ ok: admitted, remaining: model.balance });
                break;
              }
              case "burst": {
                // Concurrent spends from both stores: exactly as many admitted as the balance holds.
                refillDue(model, now);
                const admitted = Math.min(step.count, Math.floor(model.balance / step.cost));
                const answers = await Promise.all(
                  Array.from({ length: step.count }, (_, i) => stores[i % 2]?.spend(id, step.cost, now)),
                );
                expect(answers.filter((answer) => answer?.ok)).toHaveLength(admitted);
                const left = answers.filter((answer) => answer?.ok).map((answer) => answer?.remaining);
                const expected = Array.from(
                  { length: admitted },
                  (_, i) => model.balance - (i + 1) * step.cost,
                );
                expect(left.sort((x = 0, y = 0) => y - x)).toEqual(expected);
                model.balance -= admitted * step.cost;
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
                await change({ kind: "add", amount: step.amount });
                refillDue(model, now);
                model.balance += step.amount;
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
          expect(await stores[0]?.read(id, 0, now)).toMatchObject({ remaining: model.balance });
          await w.drainer().drainAll();
          expect(await w.drainer().pending()).toBe(0);
          // PostgreSQL after a full drain: the model's balance (a refill due now is what the API shows).
          const stored = await w.stored(id);
          const shown = { ...model };
          const rowModel: Model = {
            balance: stored.remaining,
            refill: model.refill,
            refilledAt: stored.refilledAt?.getTime() ?? null,
          };
          refillDue(rowModel, now);
          expect({ balance: rowModel.balance, refilledAt: rowModel.refilledAt }).toEqual({
            balance: shown.balance,
            refilledAt: shown.refilledAt,
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
