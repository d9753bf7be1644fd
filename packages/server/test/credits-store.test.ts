import { describe, expect, it } from "vitest";
import { createRawQuery } from "../src/db/raw.js";
import { keyCredits } from "../src/db/schema/index.js";
import { creditsValues } from "../src/keys/key-credits.js";
import { refillPeriodStart } from "../src/keys/refill-period.js";
import { createCreditsStore } from "../src/verify/credits-store.js";
import { describeDatabases } from "./support/databases.js";

const at = (iso: string) => Date.parse(iso);

describe("refill periods", () => {
  it("start at the UTC day and month, whatever the local offset", () => {
    expect(refillPeriodStart("daily", at("2026-03-31T23:59:59.999Z")).toISOString()).toBe(
      "2026-03-31T00:00:00.000Z",
    );
    expect(refillPeriodStart("monthly", at("2026-03-31T23:59:59.999Z")).toISOString()).toBe(
      "2026-03-01T00:00:00.000Z",
    );
    expect(refillPeriodStart("monthly", at("2028-02-29T12:00:00Z")).toISOString()).toBe(
      "2028-02-01T00:00:00.000Z",
    );
  });
});

describeDatabases("credit balances", (target) => {
  let n = 0;
  async function balance(
    remaining: number,
    refill: { interval: "daily" | "monthly"; amount: number } | null,
    setAt: string,
  ) {
    const id = `cr_test_${n++}_${target.kind}`;
    await target.database.db
      .insert(keyCredits)
      .values({ id, ...creditsValues({ remaining, refill }, new Date(setAt)) });
    return id;
  }

  it("spends exactly, never below zero, and a read spends nothing", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    const id = await balance(3, null, "2026-05-10T10:00:00Z");
    const now = at("2026-05-10T10:00:01Z");
    expect(await credits.read(id, 3, now)).toMatchObject({ ok: true, remaining: 3 });
    expect(await credits.spend(id, 2, now)).toMatchObject({ ok: true, remaining: 1 });
    expect(await credits.spend(id, 2, now)).toMatchObject({ ok: false, remaining: 1 });
    expect(await credits.spend(id, 0, now)).toMatchObject({ ok: true, remaining: 1 });
    expect(await credits.spend(id, 1, now)).toMatchObject({ ok: true, remaining: 0 });
    expect((await credits.read(id, 0, now)).refillAt).toBeNull();
    // Without a refill rule, no day or month brings credits back.
    expect(await credits.spend(id, 1, at("2027-01-01T00:00:00Z"))).toMatchObject({ ok: false, remaining: 0 });
  });

  it("sets (not adds) the daily amount from the first spend after UTC midnight, once per day", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    const id = await balance(2, { interval: "daily", amount: 5 }, "2026-05-10T22:00:00Z");
    expect(await credits.spend(id, 1, at("2026-05-10T23:59:59.999Z"))).toMatchObject({
      ok: true,
      remaining: 1,
    });
    expect(await credits.read(id, 1, at("2026-05-11T00:00:00Z"))).toMatchObject({ ok: true, remaining: 5 });
    expect(await credits.spend(id, 5, at("2026-05-11T00:00:00Z"))).toMatchObject({ ok: true, remaining: 0 });
    // Later the same day: no second refill.
    expect(await credits.spend(id, 1, at("2026-05-11T23:00:00Z"))).toMatchObject({ ok: false, remaining: 0 });
    // The answer says when the next refill comes: the next UTC midnight.
    expect((await credits.read(id, 1, at("2026-05-11T23:00:00Z"))).refillAt?.toISOString()).toBe(
      "2026-05-12T00:00:00.000Z",
    );
    // Days skipped: one refill, to the amount.
    expect(await credits.spend(id, 1, at("2026-05-20T08:00:00Z"))).toMatchObject({ ok: true, remaining: 4 });
  });

  it("refills monthly on the first of the UTC month, not on day boundaries", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    const id = await balance(1, { interval: "monthly", amount: 100 }, "2026-01-31T12:00:00Z");
    expect(await credits.spend(id, 1, at("2026-01-31T12:00:01Z"))).toMatchObject({ ok: true, remaining: 0 });
    expect(await credits.spend(id, 1, at("2026-01-31T23:59:59Z"))).toMatchObject({ ok: false, remaining: 0 });
    expect(await credits.spend(id, 1, at("2026-02-01T00:00:00Z"))).toMatchObject({ ok: true, remaining: 99 });
    expect(await credits.spend(id, 1, at("2026-02-28T23:00:00Z"))).toEqual({
      ok: true,
      remaining: 98,
      refillAt: new Date("2026-03-01T00:00:00Z"),
    });
  });

  it("answers a missing balance as empty", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    expect(await credits.spend("cr_gone", 1, Date.now())).toMatchObject({ ok: false, remaining: 0 });
  });
});
