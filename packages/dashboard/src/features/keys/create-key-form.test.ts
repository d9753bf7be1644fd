import { describe, expect, it } from "vitest";
import { parseCreateKeyForm } from "./create-key-form";
import { EMPTY_KEY_FIELDS } from "./key-fields";
import type { LimitRow } from "./limit-rows";

const now = new Date("2030-01-01T12:00:00Z");
const blank = EMPTY_KEY_FIELDS;
const row = (fields: Partial<LimitRow>): LimitRow => ({
  id: "r",
  name: "default",
  limit: "10",
  windowSeconds: "60",
  autoApply: true,
  ...fields,
});

describe("parseCreateKeyForm", () => {
  it("needs only a name", () => {
    expect(parseCreateKeyForm({ ...blank, name: "  ci  " }, now)).toEqual({
      ok: true,
      input: { name: "ci" },
    });
    expect(parseCreateKeyForm(blank, now)).toEqual({
      ok: false,
      errors: [{ field: "name", message: "Give the key a name." }],
    });
  });

  it("takes a list of named limits, each with both numbers in range", () => {
    const rateLimits = [
      row({ name: "default", limit: "10", windowSeconds: "60" }),
      row({ name: "tokens", limit: "1000", windowSeconds: "60", autoApply: false }),
    ];
    expect(parseCreateKeyForm({ ...blank, name: "a", rateLimits }, now)).toEqual({
      ok: true,
      input: {
        name: "a",
        rateLimits: [
          { name: "default", limit: 10, windowSeconds: 60, autoApply: true },
          { name: "tokens", limit: 1000, windowSeconds: 60, autoApply: false },
        ],
      },
    });
    const only = (fields: Partial<LimitRow>) =>
      parseCreateKeyForm({ ...blank, name: "a", rateLimits: [row(fields)] }, now);
    expect(only({ windowSeconds: "" }).ok).toBe(false);
    expect(only({ limit: "1.5", windowSeconds: "60" }).ok).toBe(false);
  });

  it("says which row's name is malformed or used twice, and refuses an eleventh limit", () => {
    const parsed = parseCreateKeyForm(
      {
        ...blank,
        name: "a",
        rateLimits: [row({ name: "Tokens" }), row({ name: "day" }), row({ name: "day" })],
      },
      now,
    );
    expect(parsed).toEqual({
      ok: false,
      errors: [
        { field: "limit-0-name", message: "A limit's name is 1-32 characters of a-z, 0-9, _ . -" },
        { field: "limit-2-name", message: "The name “day” is used twice." },
      ],
    });
    const eleven = Array.from({ length: 11 }, (_, i) => row({ name: `l${i}` }));
    const tooMany = parseCreateKeyForm({ ...blank, name: "a", rateLimits: eleven }, now);
    expect(tooMany.ok ? [] : tooMany.errors).toEqual([
      { field: null, message: "A key holds at most 10 rate limits." },
    ]);
  });

  it("takes an expiry in the future only", () => {
    const parsed = parseCreateKeyForm({ ...blank, name: "a", expiresAt: "2031-06-01T10:00" }, now);
    expect(parsed.ok && parsed.input.expiresAt).toEqual(new Date("2031-06-01T10:00"));
    expect(parseCreateKeyForm({ ...blank, name: "a", expiresAt: "2020-06-01T10:00" }, now)).toEqual({
      ok: false,
      errors: [{ field: "expiresAt", message: "The expiry must be in the future." }],
    });
  });

  it("adds permissions, credits with a refill, and metadata when given", () => {
    expect(
      parseCreateKeyForm(
        {
          ...blank,
          name: "billing",
          permissions: "prices:read, keys.*\nprices:read",
          creditsRemaining: "100",
          refill: "monthly",
          refillAmount: "500",
          meta: '{ "customerId": "cus_123", "plan": { "tier": 2 } }',
        },
        now,
      ),
    ).toEqual({
      ok: true,
      input: {
        name: "billing",
        permissions: ["prices:read", "keys.*"],
        credits: { remaining: 100, refill: { interval: "monthly", amount: 500 } },
        meta: { customerId: "cus_123", plan: { tier: 2 } },
      },
    });
  });

  it("says what is wrong with a policy field, and sends nothing", () => {
    expect(parseCreateKeyForm({ ...blank, name: "a", permissions: "Prices:Read" }, now)).toEqual({
      ok: false,
      errors: [
        {
          field: "permissions",
          message: "“Prices:Read” is not a permission: use 1-64 characters of a-z, 0-9, _ . : * -.",
        },
      ],
    });
    expect(parseCreateKeyForm({ ...blank, name: "a", refill: "daily", refillAmount: "5" }, now)).toEqual({
      ok: false,
      errors: [{ field: "creditsRemaining", message: "Credits are a whole number from 0 to 1,000,000,000." }],
    });
    expect(parseCreateKeyForm({ ...blank, name: "a", meta: "[1]" }, now)).toEqual({
      ok: false,
      errors: [
        { field: "meta", message: 'The metadata must be a JSON object, like {"customerId": "cus_123"}.' },
      ],
    });
  });
});

describe("parseCreateKeyForm's errors", () => {
  it("names every wrong field, in the form's order, so each error sits beside its input", () => {
    const parsed = parseCreateKeyForm(
      {
        ...blank,
        name: " ",
        rateLimits: [row({ limit: "5", windowSeconds: "0" })],
        creditsRemaining: "3",
        refill: "daily",
        meta: "{",
      },
      now,
    );
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.field)).toEqual([
      "name",
      "limit-0-windowSeconds",
      "refillAmount",
      "meta",
    ]);
  });

  it("puts a wrong request count and a wrong window each beside its own input", () => {
    const parsed = parseCreateKeyForm(
      { ...blank, name: "a", rateLimits: [row({ limit: "x", windowSeconds: "0" })] },
      now,
    );
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.field)).toEqual([
      "limit-0-limit",
      "limit-0-windowSeconds",
    ]);
  });
});
