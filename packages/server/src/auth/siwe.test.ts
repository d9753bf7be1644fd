import { hexToBigInt, numberToHex, parseSignature, serializeSignature } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { NONCE_TTL_SECONDS } from "./nonce.js";
import { checkSiweMessage, type SiweSettings } from "./siwe.js";
import { REFUSED } from "./siwe-rules.js";

const settings: SiweSettings = {
  domains: ["localhost", "app.example:8443"],
  chainIds: [1],
  publicClient: null,
  logger: { warn: () => {} },
};
const account = privateKeyToAccount(generatePrivateKey());
// Every nonce counts as issued and unused, unless a test says otherwise.
const claimAny = async () => true;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const NOW = new Date("2026-11-23T20:00:00.000Z");

/**
 * The address with one letter's case flipped: never its EIP-55 form (a lower-cased address can be,
 * when every letter of the checksummed form happens to be lower case: 1 in 2^letters).
 */
function notChecksummed(address: string): string {
  return address.replace(/(?<=^0x.*?)[a-fA-F]/, (letter) =>
    letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase(),
  );
}

type MessageFields = Partial<Parameters<typeof createSiweMessage>[0]>;

async function check(fields: MessageFields = {}, edit: (message: string) => string = (message) => message) {
  const message = edit(
    createSiweMessage({
      address: account.address,
      domain: "localhost",
      uri: "http://localhost/login",
      version: "1",
      chainId: 1,
      nonce: "abcdefgh12345678",
      issuedAt: NOW,
      ...fields,
    }),
  );
  return checkSiweMessage(settings, message, await account.signMessage({ message }), claimAny, NOW);
}

describe("checkSiweMessage", () => {
  it("accepts a correct message and returns the checksummed signer, nonce and expiration", async () => {
    const expirationTime = new Date(NOW.getTime() + 60_000);
    expect(await check({ expirationTime })).toEqual({
      ok: true,
      address: account.address,
      expirationTime,
    });
  });

  it("accepts an explicit https:// or http:// scheme and a URI on another configured domain", async () => {
    expect((await check({ scheme: "https" })).ok).toBe(true);
    expect((await check({ scheme: "http", uri: "https://app.example:8443/" })).ok).toBe(true);
  });

  it("accepts an issued-at as old as a nonce lives plus the clock allowance, and refuses older", async () => {
    const limit = NOW.getTime() - NONCE_TTL_SECONDS * 1000 - 60_000;
    expect((await check({ issuedAt: new Date(limit) })).ok).toBe(true);
    expect(await check({ issuedAt: new Date(limit - 1) })).toMatchObject({ ok: false, check: "stale" });
  });

  it.each([
    ["checksum", {}, (message: string) => message.replace(account.address, notChecksummed(account.address))],
    ["uri", { uri: "http://user@localhost/" }, undefined],
    ["uri", { uri: "http://localhost:3000/" }, undefined],
    ["uri", { uri: "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66" }, undefined],
    ["uri", { uri: "ftp://localhost/login" }, undefined],
    ["uri", { uri: "javascript://localhost/%0aalert(1)" }, undefined],
    ["domain", { domain: "app.example" }, undefined],
    ["domain", { scheme: "ws" }, undefined],
    ["version", {}, (message: string) => message.replace("Version: 1", "Version: 2")],
    ["malformed", {}, (message: string) => `${message}\nIssued At: ${NOW.toISOString()}`],
  ] satisfies [string, MessageFields, ((message: string) => string) | undefined][])(
    "refuses with the check %s",
    async (expected, fields, edit) => {
      expect(await check(fields, edit)).toMatchObject({ ok: false, check: expected });
    },
  );

  it.each([
    [
      "version",
      {},
      (message: string) => message.replace("Version: 1", "Version: 2"),
      "The message's version must be 1",
    ],
    [
      "chain_id",
      { chainId: 8453 },
      undefined,
      "The message's chain ID 8453 is not one this server accepts (1)",
    ],
    [
      "issued_at",
      { issuedAt: new Date(NOW.getTime() + 61_000) },
      undefined,
      "The message's Issued At is more than 60 s in the future: check the device's clock",
    ],
    ["expired", { expirationTime: NOW }, undefined, "The message expired at 2026-11-23T20:00:00.000Z"],
    [
      "not_before",
      { notBefore: new Date(NOW.getTime() + 1) },
      undefined,
      "The message is not yet valid: its Not Before is 2026-11-23T20:00:00.001Z",
    ],
    [
      "uri",
      { uri: "http://localhost:3000/" },
      undefined,
      "The message's URI host localhost:3000 is not one this server accepts (localhost, app.example:8443)",
    ],
    [
      "uri",
      { uri: "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66" },
      undefined,
      "The message's URI is not an http or https URI",
    ],
    [
      "uri",
      { uri: "http:/login" },
      undefined,
      "The message's URI has no host (this server accepts localhost, app.example:8443)",
    ],
  ] satisfies [string, MessageFields, ((message: string) => string) | undefined, string][])(
    "refuses the check %s with a sentence naming it: %s",
    async (expected, fields, edit, message) => {
      expect(await check(fields, edit)).toMatchObject({ ok: false, check: expected, message });
    },
  );

  it("cuts a long domain short in the sentence it quotes", async () => {
    // viem writes no label over 63 characters; the grammar (RFC 3986) has no such bound.
    const domain = `${"a".repeat(200)}.example`;
    const refused = await check({}, (message) => message.replace(/^localhost /, `${domain} `));
    expect(refused).toMatchObject({ ok: false, check: "domain" });
    expect(refused.ok ? "" : refused.message).toBe(
      `The message's domain ${"a".repeat(100)}... is not one this server accepts (localhost, app.example:8443)`,
    );
  });

  it("refuses a signature that is not hex before reading the message", async () => {
    const message = createSiweMessage({
      address: account.address,
      domain: "localhost",
      uri: "http://localhost/login",
      version: "1",
      chainId: 1,
      nonce: "abcdefgh12345678",
      issuedAt: NOW,
    });
    expect(await checkSiweMessage(settings, message, "0xzz", claimAny, NOW)).toEqual({
      ok: false,
      ...REFUSED.signature,
    });
  });

  it("accepts an http or https URI whatever the case of its scheme", async () => {
    expect((await check({ uri: "HTTPS://localhost/login" })).ok).toBe(true);
  });

  it("claims the nonce after the message's own checks, before its signature", async () => {
    const claimed: string[] = [];
    const claimNone = async (nonce: string) => {
      claimed.push(nonce);
      return false;
    };
    const fields = {
      address: account.address,
      uri: "http://localhost/login",
      version: "1",
      chainId: 1,
      nonce: "abcdefgh12345678",
      issuedAt: NOW,
    } as const;
    const wrongDomain = createSiweMessage({ ...fields, domain: "app.example" });
    expect(await checkSiweMessage(settings, wrongDomain, "0x00", claimNone, NOW)).toEqual({
      ok: false,
      check: "domain",
      message:
        "The message's domain app.example is not one this server accepts (localhost, app.example:8443)",
      nonce: "abcdefgh12345678",
    });
    expect(claimed).toEqual([]);
    const right = createSiweMessage({ ...fields, domain: "localhost" });
    expect(await checkSiweMessage(settings, right, "0x00", claimNone, NOW)).toEqual({
      ok: false,
      ...REFUSED.nonce,
    });
    expect(claimed).toEqual(["abcdefgh12345678"]);
  });

  it("refuses an EOA signature with a high s, the malleable twin of the one the wallet made", async () => {
    const message = createSiweMessage({
      address: account.address,
      domain: "localhost",
      uri: "http://localhost/login",
      version: "1",
      chainId: 1,
      nonce: "abcdefgh12345678",
      issuedAt: NOW,
    });
    const low = parseSignature(await account.signMessage({ message }));
    const high = serializeSignature({
      r: low.r,
      s: numberToHex(SECP256K1_N - hexToBigInt(low.s), { size: 32 }),
      yParity: low.yParity === 0 ? 1 : 0,
    });
    expect(await checkSiweMessage(settings, message, high, claimAny, NOW)).toEqual({
      ok: false,
      ...REFUSED.highS,
    });
    expect((await checkSiweMessage(settings, message, serializeSignature(low), claimAny, NOW)).ok).toBe(true);
  });
});
