import { describe, expect, it } from "vitest";
import { createSessionMemo } from "./session-memo.js";

const NOW = new Date("2026-11-24T12:00:00Z");
const live = { wallet: "0xA", expiresAt: new Date("2026-11-24T13:00:00Z"), lastSeenAt: NOW };

describe("session memo", () => {
  it("answers a remembered session until it expires", () => {
    const memo = createSessionMemo();
    memo.remember("h", live, memo.generation());
    expect(memo.recall("h", NOW)).toEqual(live);
    expect(memo.recall("h", live.expiresAt)).toBeUndefined();
    expect(memo.recall("h", NOW)).toBeUndefined();
  });

  it("does not remember what a lookup read when a sign-out happened after it started", () => {
    const memo = createSessionMemo();
    const startedIn = memo.generation();
    memo.forget("h");
    memo.remember("h", live, startedIn);
    expect(memo.recall("h", NOW)).toBeUndefined();
    memo.remember("h", live, memo.generation());
    expect(memo.recall("h", NOW)).toEqual(live);
    memo.forget("h");
    expect(memo.recall("h", NOW)).toBeUndefined();
  });

  it("keeps at most its bound of sessions, the least recently used going first", () => {
    const memo = createSessionMemo(2);
    for (const hash of ["a", "b"]) memo.remember(hash, live, memo.generation());
    expect(memo.recall("a", NOW)).toEqual(live);
    memo.remember("c", live, memo.generation());
    expect(memo.recall("b", NOW)).toBeUndefined();
    expect(memo.recall("a", NOW)).toEqual(live);
    expect(memo.recall("c", NOW)).toEqual(live);
  });
});
