import { describe, expect, it } from "vitest";
import { askedLimits, autoAppliedLimits, PLAN_KEY_LIMIT_NAME } from "./applied-limits.js";

const calls = { name: "calls", limit: 5, windowSeconds: 60, autoApply: true };
const plan = {
  rateLimits: [calls, { name: "tokens", limit: 100, windowSeconds: 60, autoApply: false }],
  keyLimit: { name: PLAN_KEY_LIMIT_NAME, limit: 2, windowSeconds: 1, autoApply: true },
};

describe("a plan's limits beside the key's and the wallet's", () => {
  it("apply after the key's and the wallet's own, with scope plan, each level counting in a window of its own", () => {
    const applied = autoAppliedLimits("key_a", [calls], [calls], plan);
    expect(applied.map((l) => [l.name, l.scope])).toEqual([
      ["calls", "key"],
      ["calls", "wallet"],
      ["calls", "plan"],
      ["plan_key", "plan"],
    ]);
    expect(new Set(applied.map((l) => l.id)).size).toBe(4);
    // The plan's wallet-wide window is the same for every key of the wallet; its per-key one is not.
    const other = autoAppliedLimits("key_b", [], [], plan);
    expect(other.find((l) => l.name === "calls")?.id).toBe(applied[2]?.id);
    expect(other.find((l) => l.name === "plan_key")?.id).not.toBe(applied[3]?.id);
  });

  it("cost a plan limit named in a verification, and know its name", () => {
    const asked = askedLimits("key_a", [], [], [{ name: "tokens", cost: 7 }], plan);
    expect(asked.unknown).toBeUndefined();
    expect(asked.applied.map((l) => [l.name, l.scope, l.cost])).toEqual([
      ["calls", "plan", 1],
      ["tokens", "plan", 7],
      ["plan_key", "plan", 1],
    ]);
    expect(askedLimits("key_a", [], [], [{ name: "tokens", cost: 1 }]).unknown).toBe("tokens");
  });
});
