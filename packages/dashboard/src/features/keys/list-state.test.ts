import { describe, expect, it } from "vitest";
import { DEFAULT_KEYS_LIST_STATE, formatKeysListSearch, parseKeysListState } from "./list-state";

describe("parseKeysListState", () => {
  it("reads q, status, sort and page", () => {
    expect(parseKeysListState("?q=pay&status=revoked&sort=name&page=3")).toEqual({
      q: "pay",
      status: "revoked",
      sort: "name",
      page: 3,
    });
  });

  it("falls back to the defaults for absent, unknown or malformed values", () => {
    expect(parseKeysListState("")).toEqual(DEFAULT_KEYS_LIST_STATE);
    expect(parseKeysListState("?status=deleted&sort=cost&page=-2")).toEqual(DEFAULT_KEYS_LIST_STATE);
    expect(parseKeysListState("?page=1.5").page).toBe(1);
    expect(parseKeysListState("?page=abc").page).toBe(1);
  });

  it("bounds the search text", () => {
    expect(parseKeysListState(`?q=${"a".repeat(500)}`).q).toHaveLength(100);
  });
});

describe("formatKeysListSearch", () => {
  it("leaves defaults out, so the plain list is /keys", () => {
    expect(formatKeysListSearch(DEFAULT_KEYS_LIST_STATE)).toBe("");
    expect(formatKeysListSearch({ ...DEFAULT_KEYS_LIST_STATE, sort: "last-used", page: 2 })).toBe(
      "?sort=last-used&page=2",
    );
  });

  it("round-trips through parseKeysListState, spaces and symbols included", () => {
    const state = { q: "pay & ship", status: "expired", sort: "name", page: 4 } as const;
    expect(parseKeysListState(formatKeysListSearch(state))).toEqual(state);
  });
});
