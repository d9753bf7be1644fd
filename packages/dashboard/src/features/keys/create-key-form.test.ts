import { describe, expect, it } from "vitest";
import { parseCreateKeyForm } from "./create-key-form";
import { EMPTY_KEY_FIELDS } from "./key-fields";

const now = new Date("2030-01-01T12:00:00Z");
const blank = EMPTY_KEY_FIELDS;

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

  it("takes a rate limit only with both numbers in range", () => {
    expect(parseCreateKeyForm({ ...blank, name: "a", limit: "10", windowSeconds: "60" }, now)).toEqual({
      ok: true,
      input: { name: "a", rateLimit: { limit: 10, windowSeconds: 60 } },
    });
    expect(parseCreateKeyForm({ ...blank, name: "a", limit: "10" }, now).ok).toBe(false);
    expect(parseCreateKeyForm({ ...blank, name: "a", limit: "1.5", windowSeconds: "60" }, now).ok).toBe(
      false,
    );
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
        limit: "5",
        windowSeconds: "0",
        creditsRemaining: "3",
        refill: "daily",
        meta: "{",
      },
      now,
    );
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.field)).toEqual([
      "name",
      "windowSeconds",
      "refillAmount",
      "meta",
    ]);
  });

  it("points a wrong request count at the count, not the window", () => {
    const parsed = parseCreateKeyForm({ ...blank, name: "a", limit: "x", windowSeconds: "0" }, now);
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.field)).toEqual(["limit"]);
  });
});
