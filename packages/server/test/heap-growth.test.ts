import { describe, expect, it } from "vitest";
import { fixtureNumber } from "./support/process.js";

/** Peak old-space use (MB) of the churn fixture, with or without the server's heap-growth bound. */
function peakOldSpaceMb(mode: "limit" | "default"): Promise<number> {
  return fixtureNumber("test/support/heap-churn.ts", [mode], "peakMb");
}

describe("the server's bound on heap growth between full collections", () => {
  it("keeps the old generation well below V8's default growth under promoted garbage", async () => {
    const unbounded = await peakOldSpaceMb("default");
    const bounded = await peakOldSpaceMb("limit");
    // About 77 MB against 51 MB on the bench machine: the default lets it grow to 1.5x and more.
    expect(bounded).toBeLessThan(unbounded * 0.8);
  });
});
