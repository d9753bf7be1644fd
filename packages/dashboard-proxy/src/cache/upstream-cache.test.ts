import { describe, expect, it } from "vitest";
import type { UpstreamResult } from "../upstream/failure.js";
import { createUpstreamCache, NOT_FOUND_TTL_MS } from "./upstream-cache.js";

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const ok = (body: string): UpstreamResult<string> => ({ ok: true, value: body });
const failed: UpstreamResult<string> = { ok: false, failure: { kind: "bad_gateway", detail: "HTTP 500" } };

describe("createUpstreamCache", () => {
  it("shares one in-flight load among concurrent callers of a key", async () => {
    const cache = createUpstreamCache({ ttlMs: 60_000, staleWhileRevalidateMs: 0, maxEntries: 10 });
    const { open, opened } = gate();
    let loads = 0;
    const load = async () => {
      loads += 1;
      await opened;
      return ok("body");
    };
    const pending = Promise.all(Array.from({ length: 50 }, () => cache.get("k", load, undefined)));
    open();
    const outcomes = await pending;
    expect(loads).toBe(1);
    expect(outcomes.every((outcome) => outcome.ok && outcome.body === "body")).toBe(true);
    expect(await cache.get("k", load, undefined)).toMatchObject({ ok: true, state: "HIT" });
  });

  it("returns the failure, uncached, when there is no copy", async () => {
    const cache = createUpstreamCache({ ttlMs: 60_000, staleWhileRevalidateMs: 0, maxEntries: 10 });
    expect(await cache.get("k", async () => failed, undefined)).toEqual(failed);
    expect(await cache.get("k", async () => ok("later"), undefined)).toMatchObject({
      ok: true,
      body: "later",
      state: "MISS",
    });
  });

  it("serves the stale copy when a refresh fails, and keeps it for the next failure", async () => {
    let clock = 1_000; // lru-cache reads a start time of 0 as "no TTL"
    const cache = createUpstreamCache({
      ttlMs: 1_000,
      staleWhileRevalidateMs: 0,
      maxEntries: 10,
      now: () => clock,
    });
    await cache.get("k", async () => ok("old"), undefined);
    clock += 1_001;
    expect(await cache.get("k", async () => failed, undefined)).toMatchObject({
      ok: true,
      body: "old",
      state: "STALE",
      maxAgeSeconds: 0,
    });
    expect(await cache.get("k", async () => failed, undefined)).toMatchObject({
      ok: true,
      body: "old",
      state: "STALE",
    });
    expect(await cache.get("k", async () => ok("new"), undefined)).toMatchObject({
      ok: true,
      body: "new",
      state: "MISS",
    });
  });

  it("counts max-age down on its clock, then serves STALE at once within the window while one refresh runs", async () => {
    let clock = 1_000; // lru-cache reads a start time of 0 as "no TTL"
    const cache = createUpstreamCache({
      ttlMs: 60_000,
      staleWhileRevalidateMs: 30_000,
      maxEntries: 10,
      now: () => clock,
    });
    await cache.get("k", async () => ok("old"), undefined);
    clock += 45_500;
    expect(await cache.get("k", async () => ok("unused"), undefined)).toMatchObject({
      state: "HIT",
      maxAgeSeconds: 14,
    });

    clock += 14_501;
    const { open, opened } = gate();
    let refreshed = false;
    const refresh = async () => {
      await opened;
      refreshed = true;
      return ok("new");
    };
    expect(await cache.get("k", refresh, undefined)).toMatchObject({
      body: "old",
      state: "STALE",
      maxAgeSeconds: 0,
    });
    expect(refreshed).toBe(false);
    open();
    await expect.poll(async () => (await cache.get("k", refresh, undefined)).ok && refreshed).toBe(true);
    expect(await cache.get("k", refresh, undefined)).toMatchObject({
      body: "new",
      state: "HIT",
      maxAgeSeconds: 60,
    });
  });

  it("keeps an answer fresh for the ttlMs a call passes instead of the cache's own", async () => {
    let clock = 1_000;
    const cache = createUpstreamCache({
      ttlMs: 1_000,
      staleWhileRevalidateMs: 0,
      maxEntries: 10,
      now: () => clock,
    });
    await cache.get("k", async () => ok("old"), { ttlMs: 300_000 });
    clock += 200_000;
    expect(await cache.get("k", async () => ok("new"), { ttlMs: 300_000 })).toMatchObject({
      body: "old",
      state: "HIT",
      maxAgeSeconds: 100,
    });
    expect(await cache.get("k", async () => ok("new"), undefined)).toMatchObject({
      body: "new",
      state: "MISS",
    });
  });

  it("answers a fresh copy from the shared tier as a HIT, and keeps it in this process", async () => {
    const clock = 5_000;
    let sharedLoads = 0;
    const cache = createUpstreamCache({
      ttlMs: 60_000,
      staleWhileRevalidateMs: 0,
      maxEntries: 10,
      now: () => clock,
      shared: {
        async load() {
          sharedLoads += 1;
          return {
            ok: true,
            entry: { body: "from another instance", fetchedAt: clock - 10_000 },
            from: "shared",
          };
        },
      },
    });
    const unused = async () => ok("unused");
    expect(await cache.get("k", unused, undefined)).toMatchObject({
      body: "from another instance",
      state: "HIT",
      maxAgeSeconds: 50,
    });
    expect(await cache.get("k", unused, undefined)).toMatchObject({ state: "HIT" });
    expect(sharedLoads).toBe(1);
  });

  it("remembers the upstream's 404 for 10 minutes, hands the load its asker, and never serves a 404 stale", async () => {
    let now = 1_000_000;
    const cache = createUpstreamCache<string>({
      ttlMs: 60_000,
      staleWhileRevalidateMs: 600_000,
      maxEntries: 10,
      now: () => now,
    });
    const askers: string[] = [];
    const missing = async (_signal: AbortSignal, asker: string): Promise<UpstreamResult<string>> => {
      askers.push(asker);
      return { ok: false, failure: { kind: "not_found", detail: "HTTP 404" } };
    };
    expect(await cache.get("k", missing, undefined, "first")).toMatchObject({
      ok: false,
      failure: { kind: "not_found" },
    });
    now += NOT_FOUND_TTL_MS - 1;
    expect(cache.get("k", missing, undefined, "second")).toMatchObject({
      ok: false,
      failure: { kind: "not_found" },
    });
    expect(askers).toEqual(["first"]);
    now += 1;
    expect(
      await cache.get(
        "k",
        async (_signal, asker) => {
          askers.push(asker);
          return ok("found");
        },
        undefined,
        "third",
      ),
    ).toMatchObject({
      ok: true,
      body: "found",
      state: "MISS",
    });
    expect(askers).toEqual(["first", "third"]);
  });
});
