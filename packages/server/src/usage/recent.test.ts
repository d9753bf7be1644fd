import { describe, expect, it } from "vitest";
import { createRecentSamples, type VerificationSample } from "./recent.js";

const sample = (atMs: number): VerificationSample => ({
  atMs,
  outcome: "VALID",
  permissions: undefined,
  cost: undefined,
  ip: undefined,
  refusedBy: undefined,
});
const times = (list: VerificationSample[] | undefined) => (list ?? []).map((s) => s.atMs);

describe("recent verification samples in memory", () => {
  it("keeps a key's newest samples, oldest first, without growing past the per-key bound", () => {
    const samples = createRecentSamples(3, 100);
    for (let i = 0; i < 8; i++) samples.add("key_a", sample(i));
    expect(samples.size).toBe(3);
    expect(times(samples.take().get("key_a"))).toEqual([5, 6, 7]);
    expect(samples.size).toBe(0);
  });

  it("drops new keys' samples once the global bound is reached, while held keys keep their newest", () => {
    const samples = createRecentSamples(2, 3);
    expect(samples.add("key_a", sample(1))).toBe(true);
    expect(samples.add("key_a", sample(2))).toBe(true);
    expect(samples.add("key_b", sample(3))).toBe(true);
    expect(samples.add("key_c", sample(4))).toBe(false);
    expect(samples.add("key_b", sample(5))).toBe(false);
    // A full key replaces its oldest: no growth, nothing refused.
    expect(samples.add("key_a", sample(6))).toBe(true);
    expect(samples.size).toBe(3);
    const taken = samples.take();
    expect([...taken.keys()]).toEqual(["key_a", "key_b"]);
    expect(times(taken.get("key_a"))).toEqual([2, 6]);
  });

  it("puts back a failed write's samples behind newer ones, within both bounds", () => {
    const samples = createRecentSamples(3, 4);
    for (let i = 0; i < 3; i++) samples.add("key_a", sample(i));
    samples.add("key_b", sample(10));
    const taken = samples.take();
    samples.add("key_a", sample(3));
    samples.add("key_a", sample(4));
    samples.putBack(taken);
    const again = samples.take();
    expect(times(again.get("key_a"))).toEqual([2, 3, 4]);
    expect(times(again.get("key_b"))).toEqual([10]);
  });
});
