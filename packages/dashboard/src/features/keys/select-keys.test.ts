import { describe, expect, it } from "vitest";
import type { ApiKey } from "./key-status";
import { activeKeyCapNotice, matchesKeyQuery, pageOf, selectKeys } from "./select-keys";

function key(
  id: string,
  name: string,
  created: string,
  lastUsed: string | null,
  status: ApiKey["status"] = "active",
): ApiKey {
  return {
    id,
    wallet: "0x0000000000000000000000000000000000000001",
    name,
    start: `kp_${id}`,
    status,
    createdAt: new Date(created),
    expiresAt: null,
    lastUsedAt: lastUsed === null ? null : new Date(lastUsed),
    revokedAt: null,
    rateLimit: null,
    permissions: [],
    credits: null,
    meta: null,
    leak: null,
    allowedIps: null,
  };
}

const keys = [
  key("aa11", "Payments", "2026-01-01T00:00:00Z", null),
  key("bb22", "billing 2", "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z", "revoked"),
  key("cc33", "Billing 10", "2026-01-02T00:00:00Z", "2026-01-05T00:00:00Z"),
];

describe("selectKeys", () => {
  it("sorts newest first by default", () => {
    expect(selectKeys(keys, { q: "", status: "all", sort: "created" }).map((k) => k.id)).toEqual([
      "bb22",
      "cc33",
      "aa11",
    ]);
  });

  it("sorts by last use, never-used last", () => {
    expect(selectKeys(keys, { q: "", status: "all", sort: "last-used" }).map((k) => k.id)).toEqual([
      "cc33",
      "bb22",
      "aa11",
    ]);
  });

  it("sorts by name ignoring case, numbers in order", () => {
    expect(selectKeys(keys, { q: "", status: "all", sort: "name" }).map((k) => k.name)).toEqual([
      "billing 2",
      "Billing 10",
      "Payments",
    ]);
  });

  it("filters by status and by name or start", () => {
    expect(selectKeys(keys, { q: "", status: "active", sort: "created" }).map((k) => k.id)).toEqual([
      "cc33",
      "aa11",
    ]);
    expect(selectKeys(keys, { q: " BILL ", status: "active", sort: "created" }).map((k) => k.id)).toEqual([
      "cc33",
    ]);
    expect(selectKeys(keys, { q: "kp_aa", status: "all", sort: "created" }).map((k) => k.id)).toEqual([
      "aa11",
    ]);
  });

  it("does not reorder its input", () => {
    const before = keys.map((k) => k.id);
    selectKeys(keys, { q: "", status: "all", sort: "name" });
    expect(keys.map((k) => k.id)).toEqual(before);
  });
});

describe("matchesKeyQuery", () => {
  it("matches everything for an empty search", () => {
    expect(matchesKeyQuery({ name: "x", start: "kp_1" }, "  ")).toBe(true);
    expect(matchesKeyQuery({ name: "x", start: "kp_1" }, "y")).toBe(false);
  });
});

describe("pageOf", () => {
  it("slices a page and clamps a page past the end to the last one", () => {
    const items = [1, 2, 3, 4, 5];
    expect(pageOf(items, 2, 2)).toEqual({ items: [3, 4], page: 2, pages: 3 });
    expect(pageOf(items, 9, 2)).toEqual({ items: [5], page: 3, pages: 3 });
    expect(pageOf([], 1, 2)).toEqual({ items: [], page: 1, pages: 1 });
  });
});

describe("activeKeyCapNotice", () => {
  it("says nothing far from the cap, warns from 90 %, and says full at it", () => {
    expect(activeKeyCapNotice(44, 50)).toBeNull();
    expect(activeKeyCapNotice(45, 50)).toBe("near");
    expect(activeKeyCapNotice(50, 50)).toBe("full");
    expect(activeKeyCapNotice(0, 1)).toBeNull();
  });
});
