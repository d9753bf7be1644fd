import { describe, expect, it } from "vitest";
import { boundsOf, knownPoints, linePath } from "./line-path";

describe("linePath", () => {
  it("scales points into the box with the highest value at the top", () => {
    expect(
      linePath(
        [
          [0, 10],
          [5, 20],
          [10, 15],
        ],
        100,
        50,
      ),
    ).toBe("M0 50 L50 0 L100 25");
  });

  it("draws a flat series at mid-height and an empty one as nothing", () => {
    expect(
      linePath(
        [
          [0, 3],
          [1, 3],
        ],
        10,
        10,
      ),
    ).toBe("M0 5 L10 5");
    expect(linePath([], 10, 10)).toBe("");
    expect(boundsOf([[4, 2]])).toEqual({ minX: 4, maxX: 5, minY: 1, maxY: 3 });
  });
});

describe("knownPoints", () => {
  it("skips the [timestamp, null] points CoinGecko sends", () => {
    expect(
      knownPoints([
        [0, 1],
        [5, null],
        [10, 2],
      ]),
    ).toEqual([
      [0, 1],
      [10, 2],
    ]);
  });
});
