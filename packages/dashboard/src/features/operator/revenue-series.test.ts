import { describe, expect, it } from "vitest";
import { chartPair, revenueSeries } from "./revenue-series";

const BASE = { network: "eip155:8453", asset: "0xAbC0000000000000000000000000000000000001" };
const OTHER = { network: "eip155:1", asset: "0xdef0000000000000000000000000000000000002" };
const row = (pair: typeof BASE, baseUnits: string, payments: number) => ({
  ...pair,
  baseUnits,
  payments,
  credits: 0,
});

describe("the revenue chart's series", () => {
  it("draws the server's own token when it was paid in, else the busiest pair, else nothing", () => {
    const totals = [row(OTHER, "10", 5), row(BASE, "3", 1)];
    expect(chartPair(totals, { ...BASE, asset: BASE.asset.toLowerCase() })).toEqual({
      ...BASE,
      asset: BASE.asset.toLowerCase(),
    });
    expect(chartPair(totals, undefined)).toEqual(OTHER);
    expect(chartPair([row(BASE, "3", 1)], OTHER)).toEqual(BASE);
    expect(chartPair([], BASE)).toBeUndefined();
  });

  it("fills every day of the range, the last one included, with only the pair's sums", () => {
    const days = [
      { ...row(BASE, "5000000", 2), day: "2026-11-02" },
      { ...row(OTHER, "7", 1), day: "2026-11-02" },
      { ...row(BASE, "1000000", 1), day: "2026-11-04" },
    ];
    const series = revenueSeries(
      days,
      BASE,
      new Date("2026-11-01T00:00:00Z"),
      new Date("2026-11-05T00:00:00Z"),
    );
    expect(series).toEqual([
      { day: "2026-11-01", baseUnits: "0", payments: 0, value: 0 },
      { day: "2026-11-02", baseUnits: "5000000", payments: 2, value: 5_000_000 },
      { day: "2026-11-03", baseUnits: "0", payments: 0, value: 0 },
      { day: "2026-11-04", baseUnits: "1000000", payments: 1, value: 1_000_000 },
    ]);
  });

  it("starts at the first day's midnight when from falls inside it", () => {
    const series = revenueSeries(
      [],
      BASE,
      new Date("2026-11-01T15:00:00Z"),
      new Date("2026-11-02T15:00:00Z"),
    );
    expect(series.map((day) => day.day)).toEqual(["2026-11-01", "2026-11-02"]);
  });
});
