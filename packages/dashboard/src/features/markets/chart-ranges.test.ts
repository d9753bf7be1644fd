import { describe, expect, it } from "vitest";
import { chartRangesFor } from "./chart-ranges";

describe("chartRangesFor", () => {
  it("hides Max on the Demo plan and offers every range on paid plans", () => {
    expect(chartRangesFor("demo").map((range) => range.label)).toEqual(["1D", "7D", "30D", "90D", "1Y"]);
    expect(chartRangesFor("pro").map((range) => range.label)).toEqual([
      "1D",
      "7D",
      "30D",
      "90D",
      "1Y",
      "Max",
    ]);
    expect(chartRangesFor("enterprise")).toHaveLength(6);
  });
});
