import { describe, expect, it } from "vitest";
import { clearOfWindowEdge } from "./clock.js";

describe("clearOfWindowEdge", () => {
  it("waits into the next window when the current one ends within the margin", async () => {
    // A 1 s window always ends within 1 s: the wait ends in the next one.
    const before = Date.now();
    await clearOfWindowEdge(1, 1_000);
    expect(Math.floor(Date.now() / 1_000)).toBeGreaterThan(Math.floor(before / 1_000));
  });

  it("returns at once when the window's end is further off than the margin", async () => {
    const before = performance.now();
    await clearOfWindowEdge(86_400, 0);
    expect(performance.now() - before).toBeLessThan(50);
  });
});
