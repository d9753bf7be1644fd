import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { buildSiweMessage, fetchNonce, newAccount, type SiweOverrides } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";

describe("refused sign-ins", () => {
  const lines: string[] = [];
  const sink = logSink(lines);
  let database: Database;
  let app: App;
  let baseUrl: string;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:" }), {
      database,
      logger: createLogger("info", sink),
    });
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** Posts a sign-in through a "proxy" on 127.0.0.1 that says the client is 203.0.113.7. */
  async function attempt(overrides: SiweOverrides, signedByAnother = false) {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(baseUrl), overrides);
    const signature = await (signedByAnother ? newAccount() : account).signMessage({ message });
    const before = lines.length;
    const { status } = await request(baseUrl, "POST", "/auth/verify", {
      body: { message, signature },
      headers: { "x-forwarded-for": "198.51.100.9, 203.0.113.7" },
    });
    expect(status).toBe(401);
    const refusals = lines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "sign-in refused");
    return { refusals, written: lines.slice(before).join("\n"), account, message, signature };
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
    const before = lines.length;
    const account = newAccount();
    const signature = await account.signMessage({ message: "hello" });
    const { status } = await request(baseUrl, "POST", "/auth/verify", {
      body: { message: "hello", signature },
    });
    expect(status).toBe(401);
    const entries = lines.slice(before).map((line) => JSON.parse(line));
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
