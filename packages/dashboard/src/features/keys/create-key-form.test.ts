import { describe, expect, it } from "vitest";
import { parseCreateKeyForm } from "./create-key-form";

const now = new Date("2030-01-01T12:00:00Z");
const blank = { name: "", limit: "", windowSeconds: "", expiresAt: "" };

describe("parseCreateKeyForm", () => {
  it("needs only a name", () => {
    expect(parseCreateKeyForm({ ...blank, name: "  ci  " }, now)).toEqual({
      ok: true,
      input: { name: "ci" },
    });
    expect(parseCreateKeyForm(blank, now)).toEqual({ ok: false, message: "Give the key a name." });
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
      message: "The expiry must be in the future.",
    });
  });
});
