import { describe, expect, it } from "vitest";
import { chartParamsSchema, marketsQuerySchema, simplePriceQuerySchema } from "./prices.js";

describe("simplePriceQuerySchema", () => {
  it("normalises ids and currencies (de-duplicated, sorted, lowercase currencies) and fills defaults", () => {
    expect(simplePriceQuerySchema.parse({ ids: "eth,btc,eth", vs_currencies: "USD,eur" })).toEqual({
      ids: ["btc", "eth"],
      vs_currencies: ["eur", "usd"],
      include_market_cap: "false",
      include_24hr_vol: "false",
      include_24hr_change: "false",
      include_last_updated_at: "false",
    });
  });

  it("keeps `false` false (no boolean coercion of query text)", () => {
    const query = simplePriceQuerySchema.parse({
      ids: "btc",
      vs_currencies: "usd",
      include_market_cap: "false",
    });
    expect(query.include_market_cap).toBe("false");
  });

  it("accepts exactly 100 ids and refuses 101", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`).join(",");
    expect(simplePriceQuerySchema.safeParse({ ids: ids(100), vs_currencies: "usd" }).success).toBe(true);
    expect(simplePriceQuerySchema.safeParse({ ids: ids(101), vs_currencies: "usd" }).success).toBe(false);
  });

  it("accepts precision `full` and 0-18 only", () => {
    for (const precision of ["full", "0", "18"]) {
      expect(simplePriceQuerySchema.safeParse({ ids: "b", vs_currencies: "usd", precision }).success).toBe(
        true,
      );
    }
    for (const precision of ["19", "-1", "1.5", "FULL"]) {
      expect(simplePriceQuerySchema.safeParse({ ids: "b", vs_currencies: "usd", precision }).success).toBe(
        false,
      );
    }
  });
});

describe("coin ids", () => {
  it.each(["bitcoin", "usd-coin", "wrapped-bitcoin", "0x", "a.b_c-d", "a".repeat(100)])(
    "accepts %s",
    (id) => {
      expect(chartParamsSchema.safeParse({ id }).success).toBe(true);
    },
  );

  it.each([".", "..", "../x", "a/b", "a%2Fb", "Bitcoin", "", " bitcoin", "-x", "a".repeat(101), "%2e%2e"])(
    "refuses %j",
    (id) => {
      expect(chartParamsSchema.safeParse({ id }).success).toBe(false);
    },
  );
});

describe("marketsQuerySchema", () => {
  it("fills CoinGecko's defaults and reads numbers", () => {
    expect(marketsQuerySchema.parse({ vs_currency: "usd", per_page: "250", page: "3" })).toEqual({
      vs_currency: "usd",
      order: "market_cap_desc",
      per_page: 250,
      page: 3,
      sparkline: "false",
    });
  });

  it("normalises price_change_percentage", () => {
    const query = marketsQuerySchema.parse({ vs_currency: "usd", price_change_percentage: "7d,1h,7d" });
    expect(query.price_change_percentage).toEqual(["1h", "7d"]);
  });
});
