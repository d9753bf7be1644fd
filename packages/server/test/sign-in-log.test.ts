import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, newAccount, type SiweOverrides } from "@keyport/test-support/siwe";
import { describe, expect, it } from "vitest";
import { useLoggedServer } from "./support/logged-server.js";

describe("refused sign-ins", () => {
  const server = useLoggedServer();

  /** Posts a sign-in through a "proxy" on 127.0.0.1 that says the client is 203.0.113.7. */
  async function attempt(overrides: SiweOverrides, signedByAnother = false) {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl), overrides);
    const signature = await (signedByAnother ? newAccount() : account).signMessage({ message });
    const before = server.lines.length;
    const { status } = await request(server.baseUrl, "POST", "/auth/verify", {
      body: { message, signature },
      headers: { "x-forwarded-for": "198.51.100.9, 203.0.113.7" },
    });
    expect(status).toBe(401);
    const refusals = server.lines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "sign-in refused");
    return { refusals, written: server.lines.slice(before).join("\n"), account, message, signature };
  }

  const cases: [string, (() => SiweOverrides) | "other-signer"][] = [
    ["domain", () => ({ domain: "evil.example" })],
    ["chain_id", () => ({ chainId: 8453 })],
    ["issued_at", () => ({ issuedAt: new Date(Date.now() + 3_600_000) })],
    ["expired", () => ({ expirationTime: new Date(Date.now() - 1_000) })],
    ["not_before", () => ({ notBefore: new Date(Date.now() + 3_600_000) })],
    ["nonce", () => ({ nonce: "NeverIssued12345678" })],
    ["signature", "other-signer"],
  ];
  it.each(cases)("logs the failed check %s at info with the client's address", async (check, make) => {
    const outcome = make === "other-signer" ? await attempt({}, true) : await attempt(make());
    expect(outcome.refusals).toEqual([
      expect.objectContaining({ level: 30, check, ip: "203.0.113.7", msg: "sign-in refused" }),
    ]);
  });

  it("logs a message that is not EIP-4361 as malformed", async () => {
    const before = server.lines.length;
    const account = newAccount();
    const signature = await account.signMessage({ message: "hello" });
    const { status } = await request(server.baseUrl, "POST", "/auth/verify", {
      body: { message: "hello", signature },
    });
    expect(status).toBe(401);
    const entries = server.lines.slice(before).map((line) => JSON.parse(line));
    expect(entries.filter((entry) => entry.msg === "sign-in refused")).toEqual([
      expect.objectContaining({ check: "malformed", ip: "127.0.0.1" }),
    ]);
  });

  it("never logs the message, the signature or the address", async () => {
    const { written, account, message, signature } = await attempt({ domain: "evil.example" });
    expect(written).toContain("sign-in refused");
    expect(written).not.toContain(signature.slice(2, 40));
    expect(written).not.toContain("Sign in to Keyport");
    expect(written).not.toContain(message.split("\n")[0]);
    expect(written.toLowerCase()).not.toContain(account.address.slice(2).toLowerCase());
  });
});
