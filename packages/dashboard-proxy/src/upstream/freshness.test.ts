import { describe, expect, it } from "vitest";
import { chartGranularity, chartTtl, FRESHNESS, pricesTtl, rangeGranularity, rangeTtl } from "./freshness.js";

describe("chartGranularity (CoinGecko's auto granularity)", () => {
  it.each([
    ["1", undefined, "5m"],
    ["2", undefined, "hourly"],
    ["90", undefined, "hourly"],
    ["91", undefined, "daily"],
    ["max", undefined, "daily"],
    ["365", "hourly", "hourly"],
    ["1", "daily", "daily"],
  ] as const)("days=%s interval=%s is %s", (days, interval, expected) => {
    expect(chartGranularity(days, interval)).toBe(expected);
  });
});

describe("rangeGranularity", () => {
  it("follows the range's length, or the interval", () => {
    expect(rangeGranularity("2024-01-01", "2024-01-02", undefined)).toBe("5m");
    expect(rangeGranularity("2024-01-01", "2024-03-01", undefined)).toBe("hourly");
    expect(rangeGranularity("1704067200", "1735689600", undefined)).toBe("daily");
    expect(rangeGranularity("2024-01-01", "2024-01-02", "daily")).toBe("daily");
  });
});

describe("freshness", () => {
  it("prices: 60 s on Demo, 20 s on paid plans", () => {
    expect(pricesTtl("demo")).toBe(60_000);
    expect(pricesTtl("pro")).toBe(20_000);
    expect(pricesTtl("enterprise")).toBe(20_000);
  });

  it("charts: one step of their granularity, daily capped at 6 h", () => {
    expect(chartTtl("5m")).toBe(5 * 60_000);
    expect(chartTtl("hourly")).toBe(3_600_000);
    expect(chartTtl("daily")).toBe(6 * 3_600_000);
  });

  it("a range that ended over a day ago is history (24 h); one reaching now follows its granularity", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(rangeTtl("2026-11-01", "2026-11-22T11:59", undefined, now)).toBe(FRESHNESS.history);
    expect(rangeTtl("2026-11-21T12:00", "2026-11-23T12:00", undefined, now)).toBe(FRESHNESS.hourly);
    expect(rangeTtl(String(now / 1_000 - 3_600), String(now / 1_000), undefined, now)).toBe(
      FRESHNESS.fiveMinutely,
    );
  });
});
