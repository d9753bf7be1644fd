import { describe, expect, it } from "vitest";
import { parseEditKeyForm } from "./edit-key-form";
import { EMPTY_KEY_FIELDS, type KeyFields } from "./key-fields";

const now = new Date("2030-01-01T12:00:00Z");
const id = "key_aaaaaaaaaaaaaaaa1";
const initial: KeyFields = {
  ...EMPTY_KEY_FIELDS,
  name: "billing",
  rateLimits: [
    { id: "r1", name: "default", limit: "10", windowSeconds: "60", autoApply: true },
    { id: "r2", name: "tokens", limit: "1000", windowSeconds: "60", autoApply: false },
  ],
  expiresAt: "2031-06-01T10:00",
  permissions: "prices:read, keys.*",
  creditsRemaining: "40",
  refill: "daily",
  refillAmount: "100",
  meta: '{\n  "plan": "pro"\n}',
};

describe("parseEditKeyForm", () => {
  it("sends only the fields that changed", () => {
    expect(parseEditKeyForm(id, { ...initial, name: " billing v2 " }, initial, now)).toEqual({
      ok: true,
      input: { id, name: "billing v2" },
    });
    expect(
      parseEditKeyForm(id, { ...initial, permissions: "keys.*,prices:read,usage:read" }, initial, now),
    ).toEqual({ ok: true, input: { id, permissions: ["keys.*", "prices:read", "usage:read"] } });
    expect(parseEditKeyForm(id, { ...initial, refillAmount: "200" }, initial, now)).toEqual({
      ok: true,
      input: { id, credits: { remaining: 40, refill: { interval: "daily", amount: 200 } } },
    });
    expect(parseEditKeyForm(id, { ...initial, meta: '{"plan":"team"}' }, initial, now)).toEqual({
      ok: true,
      input: { id, meta: { plan: "team" } },
    });
  });

  it("clears an emptied field with null, and emptied permissions with none", () => {
    const cleared: KeyFields = {
      ...initial,
      rateLimits: [],
      expiresAt: "",
      permissions: "",
      creditsRemaining: "",
      refill: "none",
      refillAmount: "",
      meta: "",
    };
    expect(parseEditKeyForm(id, cleared, initial, now)).toEqual({
      ok: true,
      input: { id, rateLimits: [], expiresAt: null, permissions: [], credits: null, meta: null },
    });
  });

  it("sends the whole list of limits when one row changed, is added or is removed, with the rows' ids aside", () => {
    const [first, second] = initial.rateLimits;
    if (first === undefined || second === undefined) throw new Error("two rows expected");
    const tokens = { name: "tokens", limit: 1000, windowSeconds: 60, autoApply: false };
    expect(
      parseEditKeyForm(id, { ...initial, rateLimits: [{ ...first, limit: "20" }, second] }, initial, now),
    ).toEqual({
      ok: true,
      input: { id, rateLimits: [{ name: "default", limit: 20, windowSeconds: 60, autoApply: true }, tokens] },
    });
    expect(parseEditKeyForm(id, { ...initial, rateLimits: [second] }, initial, now)).toEqual({
      ok: true,
      input: { id, rateLimits: [tokens] },
    });
    const same = initial.rateLimits.map((row) => ({ ...row, id: `${row.id}-again` }));
    expect(parseEditKeyForm(id, { ...initial, rateLimits: same }, initial, now).ok).toBe(false);
  });

  it("does not reset an untouched balance, and treats the same list spaced differently as unchanged", () => {
    expect(parseEditKeyForm(id, { ...initial, permissions: "prices:read,keys.*" }, initial, now)).toEqual({
      ok: false,
      errors: [{ field: null, message: "Nothing changed." }],
    });
    expect(parseEditKeyForm(id, initial, initial, now)).toEqual({
      ok: false,
      errors: [{ field: null, message: "Nothing changed." }],
    });
  });

  it("checks a changed field as create does, and says what is wrong", () => {
    expect(parseEditKeyForm(id, { ...initial, expiresAt: "2020-01-01T00:00" }, initial, now)).toEqual({
      ok: false,
      errors: [{ field: "expiresAt", message: "The expiry must be in the future." }],
    });
    const [first, second] = initial.rateLimits;
    if (first === undefined || second === undefined) throw new Error("two rows expected");
    expect(
      parseEditKeyForm(
        id,
        { ...initial, rateLimits: [first, { ...second, windowSeconds: "90000" }] },
        initial,
        now,
      ),
    ).toEqual({
      ok: false,
      errors: [{ field: "limit-1-windowSeconds", message: "A whole number of seconds from 1 to 86,400." }],
    });
    expect(parseEditKeyForm(id, { ...initial, meta: "{" }, initial, now)).toEqual({
      ok: false,
      errors: [{ field: "meta", message: "The metadata is not valid JSON." }],
    });
  });

  it("lets an expired key keep its past expiry while other fields change", () => {
    const expired = { ...initial, expiresAt: "2029-01-01T00:00" };
    expect(parseEditKeyForm(id, { ...expired, name: "old" }, expired, now)).toEqual({
      ok: true,
      input: { id, name: "old" },
    });
  });
});
