import { describe, expect, it } from "vitest";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "./json-depth.js";

function nested(depth: number): unknown {
  return JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
}

describe("jsonDeeperThan", () => {
  it("counts arrays and objects, not scalars", () => {
    expect(jsonDeeperThan(1, 0)).toBe(false);
    expect(jsonDeeperThan("a", 0)).toBe(false);
    expect(jsonDeeperThan({}, 0)).toBe(true);
    expect(jsonDeeperThan({ a: [1] }, 2)).toBe(false);
    expect(jsonDeeperThan({ a: [1] }, 1)).toBe(true);
    expect(jsonDeeperThan([1, { b: { c: [] } }], 3)).toBe(true);
  });

  it("allows exactly the bound and refuses one more, however deep the value goes", () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDeeperThan(nested(100_000))).toBe(true);
  });
});
