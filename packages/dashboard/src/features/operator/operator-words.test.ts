import { describe, expect, it } from "vitest";
import { actionWords, actorWords, SCOPES, scopesWords, tokenStatusWords } from "./operator-words";

describe("operator words", () => {
  it("names who acted without raw types", () => {
    expect(actorWords({ type: "wallet", address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed" })).toBe(
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    );
    expect(actorWords({ type: "token", id: "opt_4fT9aQ2LmN7pR8sT1vW3yZ", name: "billing job" })).toBe(
      "token “billing job”",
    );
    expect(actorWords({ type: "cli" })).toBe("the command line");
    expect(actorWords({ type: "leak_report", source: "github" })).toBe("a leak report (github)");
  });

  it("words actions, scopes and token statuses", () => {
    expect(actionWords("wallet.suspended")).toBe("Wallet suspended");
    expect(actionWords("key.issued")).toBe("Key issued");
    expect(scopesWords(["payments:read", "usage:read"])).toBe("payments:read, usage:read");
    expect(scopesWords(SCOPES.map((entry) => entry.scope))).toBe("All scopes");
    expect(tokenStatusWords({ status: "active", leakedAt: null })).toBe("Active");
    expect(tokenStatusWords({ status: "revoked", leakedAt: null })).toBe("Revoked");
    expect(tokenStatusWords({ status: "revoked", leakedAt: new Date() })).toBe("Revoked: found in public");
    expect(tokenStatusWords({ status: "expired", leakedAt: null })).toBe("Expired");
  });
});
