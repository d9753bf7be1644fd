import { describe, expect, it } from "vitest";
import {
  keyFieldsFrom,
  parseAllowedIps,
  parseCredits,
  parseExpiry,
  parseMeta,
  parseName,
  parsePermissions,
  toDateTimeLocal,
} from "./key-fields";
import type { ApiKey } from "./key-status";

describe("parsePermissions", () => {
  it("splits on commas and white space, drops duplicates and keeps the order", () => {
    expect(parsePermissions(" prices:read,keys.*  usage:read\n*, prices:read ,")).toEqual({
      ok: true,
      value: ["prices:read", "keys.*", "usage:read", "*"],
    });
    expect(parsePermissions("   ")).toEqual({ ok: true, value: [] });
  });

  it("refuses what the server refuses: other characters, more than 64 characters, more than 50", () => {
    for (const bad of ["PRICES", "prices/read", "ä", "a".repeat(65)]) {
      const parsed = parsePermissions(`ok ${bad}`);
      expect(parsed.ok, bad).toBe(false);
      expect(!parsed.ok && parsed.message).toMatch(/is not a permission/);
    }
    expect(parsePermissions("a".repeat(64)).ok).toBe(true);
    const fifty = Array.from({ length: 50 }, (_, index) => `p${index}`);
    expect(parsePermissions(fifty.join(",")).ok).toBe(true);
    expect(parsePermissions([...fifty, "p50"].join(","))).toEqual({
      ok: false,
      message: "A key holds at most 50 permissions (this is 51).",
    });
  });
});

describe("parseCredits", () => {
  const none = { creditsRemaining: "", refill: "none", refillAmount: "" } as const;

  it("is null (unmetered) when empty, a balance alone, or a balance with a refill", () => {
    expect(parseCredits(none)).toEqual({ ok: true, value: null });
    expect(parseCredits({ ...none, creditsRemaining: "0" })).toEqual({
      ok: true,
      value: { remaining: 0, refill: null },
    });
    expect(parseCredits({ creditsRemaining: "1000000000", refill: "daily", refillAmount: "1" })).toEqual({
      ok: true,
      value: { remaining: 1_000_000_000, refill: { interval: "daily", amount: 1 } },
    });
  });

  it("refuses balances and refill amounts outside the server's bounds", () => {
    for (const remaining of ["-1", "1.5", "1000000001", "x", "1e3"]) {
      expect(parseCredits({ ...none, creditsRemaining: remaining }).ok, remaining).toBe(false);
    }
    for (const amount of ["", "0", "1000000001", "2.5"]) {
      expect(parseCredits({ creditsRemaining: "5", refill: "monthly", refillAmount: amount })).toEqual({
        ok: false,
        message: "The refill amount is a whole number from 1 to 1,000,000,000.",
      });
    }
  });
});

describe("parseMeta", () => {
  it("is null when empty and the object otherwise", () => {
    expect(parseMeta("  ")).toEqual({ ok: true, value: null });
    expect(parseMeta('{"a": [1, null, {"b": true}]}')).toEqual({
      ok: true,
      value: { a: [1, null, { b: true }] },
    });
  });

  it("refuses invalid JSON, anything but an object, and more than 1,024 bytes of JSON (UTF-8)", () => {
    expect(parseMeta("{a: 1}")).toEqual({ ok: false, message: "The metadata is not valid JSON." });
    for (const notObject of ["[]", "null", "1", '"x"'])
      expect(parseMeta(notObject).ok, notObject).toBe(false);
    // {"v":"…"} is 8 bytes around the value; "é" is 2 bytes in UTF-8.
    expect(parseMeta(JSON.stringify({ v: "a".repeat(1016) })).ok).toBe(true);
    expect(parseMeta(JSON.stringify({ v: "é".repeat(509) }))).toEqual({
      ok: false,
      message: "The metadata is at most 1,024 bytes of JSON (this is 1,026).",
    });
  });
});

describe("parseName and parseExpiry", () => {
  const now = new Date("2030-01-01T12:00:00Z");

  it("trims the name and bounds it to 1-64 characters", () => {
    expect(parseName("  x ")).toEqual({ ok: true, value: "x" });
    expect(parseName("   ").ok).toBe(false);
    expect(parseName("a".repeat(65))).toEqual({ ok: false, message: "The name is at most 64 characters." });
  });

  it("refuses the invisible and control characters the server refuses, naming the one found", () => {
    for (const [name, found] of [
      ["pay\u202Eroll", "U+202E"],
      ["zero\u200Bwidth", "U+200B"],
      ["tab\there", "U+0009"],
    ] as const) {
      const parsed = parseName(name);
      expect(parsed.ok, name).toBe(false);
      expect(!parsed.ok && parsed.message.startsWith(`The name must not contain ${found}:`), name).toBe(true);
    }
    expect(parseName("café ☕ prod")).toEqual({ ok: true, value: "café ☕ prod" });
  });

  it("reads an empty expiry as none and refuses a past one", () => {
    expect(parseExpiry("", now)).toEqual({ ok: true, value: null });
    expect(parseExpiry("nonsense", now)).toEqual({ ok: false, message: "The expiry is not a valid date." });
    expect(parseExpiry("2029-12-31T00:00", now).ok).toBe(false);
  });
});

describe("parseAllowedIps", () => {
  it("reads one entry a line or comma separated, normalised, duplicates dropped; empty is any address", () => {
    expect(parseAllowedIps("")).toEqual({ ok: true, value: null });
    expect(parseAllowedIps("  \n ")).toEqual({ ok: true, value: null });
    expect(parseAllowedIps("10.1.2.3/8\n203.0.113.7, 2001:DB8::1\n10.0.0.0/8")).toEqual({
      ok: true,
      value: ["10.0.0.0/8", "203.0.113.7/32", "2001:db8::1/128"],
    });
  });

  it("names the first bad entry, and refuses more than 100", () => {
    expect(parseAllowedIps("10.0.0.0/8\n10.0.0.300\nnope")).toEqual({
      ok: false,
      message:
        "“10.0.0.300” is not an IP address or CIDR block, like 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32.",
    });
    const many = Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`).join("\n");
    expect(parseAllowedIps(many)).toEqual({
      ok: false,
      message: "A key allows at most 100 addresses or blocks (this is 101).",
    });
  });
});

describe("keyFieldsFrom", () => {
  it("fills the form with what the key holds, so an untouched form round-trips", () => {
    const expiresAt = new Date(2031, 5, 1, 9, 5);
    const key: ApiKey = {
      id: "key_aaaaaaaaaaaaaaaa1",
      wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      name: "billing",
      start: "kp_AbCd",
      status: "active",
      createdAt: new Date("2030-01-01T00:00:00Z"),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      rateLimit: { limit: 10, windowSeconds: 60 },
      rateLimits: [{ name: "default", limit: 10, windowSeconds: 60, autoApply: true }],
      permissions: ["a", "b:c"],
      credits: { remaining: 7, purchased: 0, refill: { interval: "monthly", amount: 9 }, refilledAt: null },
      meta: { customerId: "cus_1" },
      leak: null,
      allowedIps: ["10.0.0.0/8", "2001:db8::/32"],
      issuedBy: null,
    };
    expect(keyFieldsFrom(key)).toEqual({
      name: "billing",
      rateLimits: [
        { id: expect.any(String), name: "default", limit: "10", windowSeconds: "60", autoApply: true },
      ],
      expiresAt: "2031-06-01T09:05",
      permissions: "a, b:c",
      creditsRemaining: "7",
      refill: "monthly",
      refillAmount: "9",
      meta: '{\n  "customerId": "cus_1"\n}',
      allowedIps: "10.0.0.0/8\n2001:db8::/32",
    });
    expect(new Date(toDateTimeLocal(expiresAt))).toEqual(expiresAt);
    // Purchased credits are in `remaining` but a PATCH sets the allowance alone: the form holds that.
    const topped = { ...key, credits: { remaining: 27, purchased: 20, refill: null, refilledAt: null } };
    expect(keyFieldsFrom(topped).creditsRemaining).toBe("7");
  });
});
