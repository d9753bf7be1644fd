import { describe, expect, it } from "vitest";
import { localDateTime, parseTokenForm } from "./token-form";

const NOW = new Date("2026-11-29T10:00:00Z");

describe("the create-token form", () => {
  it("gives the server's input for a name, scopes and an optional future expiry", () => {
    expect(parseTokenForm({ name: " billing job ", scopes: ["payments:read"], expiresAt: "" }, NOW)).toEqual({
      ok: true,
      input: { name: "billing job", scopes: ["payments:read"] },
    });
    const later = parseTokenForm({ name: "ci", scopes: ["usage:read"], expiresAt: "2030-01-01T00:00" }, NOW);
    expect(later.ok && later.input.expiresAt instanceof Date).toBe(true);
  });

  it("names every wrong field at once", () => {
    const parsed = parseTokenForm({ name: "", scopes: [], expiresAt: "2020-01-01T00:00" }, NOW);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual(["expiresAt", "name", "scopes"]);
    expect(parsed.errors.scopes).toBe("Choose one scope at least.");
    expect(parsed.errors.expiresAt).toBe("Choose a time in the future.");
  });

  it("refuses a name with an invisible character, as a key's", () => {
    const parsed = parseTokenForm({ name: "ci\u200b", scopes: ["usage:read"], expiresAt: "" }, NOW);
    expect(parsed.ok).toBe(false);
  });

  it("writes a local time as a datetime-local value", () => {
    expect(localDateTime(new Date(2026, 0, 2, 3, 4))).toBe("2026-01-02T03:04");
  });
});
