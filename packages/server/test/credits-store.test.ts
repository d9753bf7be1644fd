import { eq } from "drizzle-orm";
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
    purchased = 0,
  ) {
    const id = `cr_test_${n++}_${target.kind}`;
    await target.database.db
      .insert(keyCredits)
      .values({ id, ...creditsValues({ remaining, refill }, new Date(setAt)), purchased });
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
      purchased: 0,
      refillAt: new Date("2026-03-01T00:00:00Z"),
    });
  });

  it("spends the allowance first, then purchased credits, a cost split across both in one spend", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    const id = await balance(3, null, "2026-05-10T10:00:00Z", 10);
    const now = at("2026-05-10T10:00:01Z");
    expect(await credits.read(id, 13, now)).toMatchObject({ ok: true, remaining: 13, purchased: 10 });
    expect(await credits.spend(id, 2, now)).toMatchObject({ ok: true, remaining: 11, purchased: 10 });
    // 1 left of the allowance: a cost of 4 takes it and 3 purchased.
    expect(await credits.spend(id, 4, now)).toMatchObject({ ok: true, remaining: 7, purchased: 7 });
    expect(await credits.spend(id, 8, now)).toMatchObject({ ok: false, remaining: 7, purchased: 7 });
    expect(await credits.spend(id, 7, now)).toMatchObject({ ok: true, remaining: 0, purchased: 0 });
    const [row] = await target.database.db.select().from(keyCredits).where(eq(keyCredits.id, id));
    expect(row).toMatchObject({ remaining: 0, purchased: 0 });
  });

  it("a refill sets the allowance and keeps purchased credits, which never expire", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    const id = await balance(2, { interval: "daily", amount: 5 }, "2026-05-10T08:00:00Z", 4);
    // 2 of the allowance and 1 purchased.
    expect(await credits.spend(id, 3, at("2026-05-10T09:00:00Z"))).toMatchObject({
      ok: true,
      remaining: 3,
      purchased: 3,
    });
    // Next day: the allowance is set to 5 again, the 3 purchased stay; spent allowance first.
    expect(await credits.read(id, 8, at("2026-05-11T01:00:00Z"))).toMatchObject({ ok: true, remaining: 8 });
    expect(await credits.spend(id, 6, at("2026-05-11T01:00:00Z"))).toMatchObject({
      ok: true,
      remaining: 2,
      purchased: 2,
    });
    // Months later: one refill, the purchased credits still there.
    expect(await credits.spend(id, 1, at("2026-09-01T00:00:00Z"))).toMatchObject({
      ok: true,
      remaining: 6,
      purchased: 2,
    });
  });

  it("holds balances past 2^31 (bigint columns), up to a safe integer in all", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    const big = 2 ** 40;
    const id = await balance(1_000_000_000, null, "2026-05-10T10:00:00Z", big);
    const now = at("2026-05-10T10:00:01Z");
    expect(await credits.spend(id, 1000, now)).toMatchObject({
      ok: true,
      remaining: 1_000_000_000 - 1000 + big,
    });
    await expect(balance(1, null, "2026-05-10T10:00:00Z", Number.MAX_SAFE_INTEGER)).rejects.toThrow();
  });

  it("answers a missing balance as empty", async () => {
    const credits = createCreditsStore(createRawQuery(target.database.driver));
    expect(await credits.spend("cr_gone", 1, Date.now())).toMatchObject({ ok: false, remaining: 0 });
  });
});
