import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import {
  buildSiweMessage,
  fetchNonce,
  newAccount,
  postVerify,
  type SiweOverrides,
} from "@keyport/test-support/siwe";
import { hexToBigInt, numberToHex, parseSignature, serializeSignature } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { describeDatabases } from "./support/databases.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

const DOMAINS = "(localhost, localhost:3001)";
const endExpected = (line: number) =>
  `The message is not in the EIP-4361 format: line ${line} should be the end of the message`;

// secp256k1's group order: (r, n - s) is the malleable twin of the signature (r, s).
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/**
 * A correct message for `nonce`, rewritten by `edit` (then signed as it is: the signature is valid),
 * the check it fails and the 401's sentence (a function of the signer's address).
 */
type Attack = [
  name: string,
  check: string,
  reason: string | ((address: string) => string),
  edit: (message: string) => string,
  overrides?: SiweOverrides,
];

const attacks: Attack[] = [
  [
    "a Request ID followed by an expired Expiration Time",
    "malformed",
    endExpected(12),
    (message) => `${message}\nRequest ID: 1\nExpiration Time: ${iso(-30_000)}`,
  ],
  [
    "a Not Before in the future after the Request ID",
    "malformed",
    endExpected(12),
    (message) => `${message}\nRequest ID: 1\nNot Before: ${iso(3_600_000)}`,
  ],
  [
    "a Not Before in the future after the Resources",
    "malformed",
    'The message is not in the EIP-4361 format: line 13 should be "- " URI',
    (message) => `${message}\nResources:\n- https://localhost/keys\nNot Before: ${iso(3_600_000)}`,
  ],
  ["a junk line at the end", "malformed", endExpected(11), (message) => `${message}\nhello there`],
  [
    "a junk line between fields",
    "malformed",
    'The message is not in the EIP-4361 format: line 7 should be "Version: " version',
    (message) => message.replace("\nVersion: 1", "\njunk\nVersion: 1"),
  ],
  ["a second Chain ID block", "malformed", endExpected(11), (message) => `${message}\nChain ID: 8453`],
  ["a repeated Nonce", "malformed", endExpected(11), (message) => `${message}\nNonce: AAAAAAAAAAAAAAAA`],
  ["a trailing newline", "malformed", endExpected(11), (message) => `${message}\n`],
  [
    "fields out of order",
    "malformed",
    'The message is not in the EIP-4361 format: line 7 should be "Version: " version',
    (message) => message.replace("Version: 1\nChain ID: 1", "Chain ID: 1\nVersion: 1"),
  ],
  [
    "an address with one letter in the wrong case (not EIP-55)",
    "checksum",
    (address) => `The message's address is not in its EIP-55 checksummed form (${address})`,
    (message) =>
      // One letter's case flipped: a lower-cased address can happen to be the EIP-55 form.
      message.replace(/\n0x([0-9a-fA-F]{40})\n/, (_, hex: string) => {
        const at = hex.search(/[a-fA-F]/);
        const flipped = hex[at] === hex[at]?.toLowerCase() ? hex[at]?.toUpperCase() : hex[at]?.toLowerCase();
        return `\n0x${hex.slice(0, at)}${flipped}${hex.slice(at + 1)}\n`;
      }),
  ],
  [
    "a URI on another host",
    "uri",
    `The message's URI host evil.example is not one this server accepts ${DOMAINS}`,
    (message) => message,
    { uri: "http://evil.example/login" },
  ],
  [
    "a URI on another port",
    "uri",
    `The message's URI host localhost:8080 is not one this server accepts ${DOMAINS}`,
    (message) => message,
    { uri: "http://localhost:8080/login" },
  ],
  [
    "a scheme that is not a web origin's",
    "domain",
    "The message's scheme ftp is not http or https",
    (message) => `ftp://${message}`,
  ],
  [
    "a URI with an ftp scheme on an allowed host",
    "uri",
    "The message's URI is not an http or https URI",
    (message) => message,
    { uri: "ftp://localhost/login" },
  ],
  [
    "a javascript URI on an allowed host",
    "uri",
    "The message's URI is not an http or https URI",
    (message) => message,
    { uri: "javascript://localhost/%0Aalert(document.domain)" },
  ],
  [
    "an issued-at older than a nonce lives",
    "stale",
    "The message's Issued At is older than a nonce lives (10 minutes, plus 60 s): sign a new message",
    (message) => message,
    { issuedAt: new Date(Date.now() - 12 * 60_000) },
  ],
];

describeDatabases("strict EIP-4361 sign-in", (target) => {
  const logLines: string[] = [];
  let app: App;
  let baseUrl: string;
  beforeAll(async () => {
    const sink = logSink(logLines);
    app = await createApp(
      parseEnv({
        DATABASE_URL: target.url,
        WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
        NONCE_RATE_LIMIT: "off",
      }),
      {
        database: target.database,
        logger: createLogger("info", sink),
      },
    );
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  });
  afterAll(() => app.close());

  it.each(attacks)(
    "refuses %s with 401 naming the check %s, and logs it",
    async (_, check, reason, edit, overrides) => {
      const account = newAccount();
      const nonce = await fetchNonce(baseUrl);
      const before = logLines.length;
      const attack = await postVerify(baseUrl, account, edit(buildSiweMessage(account, nonce, overrides)));
      expect(attack.status).toBe(401);
      const message = typeof reason === "string" ? reason : reason(account.address);
      expect(attack.body).toEqual({ code: "UNAUTHORIZED", message });
      const refusals = logLines
        .slice(before)
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.msg === "sign-in refused");
      expect(refusals).toEqual([expect.objectContaining({ check })]);
      // The refused attempt did not spend the nonce: the untouched message with it signs in.
      expect((await postVerify(baseUrl, account, buildSiweMessage(account, nonce))).status).toBe(200);
    },
  );

  it("signs in with every optional field present, in order, with an explicit scheme and an offset", async () => {
    const account = newAccount();
    const nonce = await fetchNonce(baseUrl);
    const issuedAt = new Date(Date.now() - 1_000);
    // +05:30 as a wallet in India would write it.
    const local = new Date(issuedAt.getTime() + 5.5 * 3_600_000).toISOString().replace("Z", "+05:30");
    const message = [
      "https://localhost:3001 wants you to sign in with your Ethereum account:",
      account.address,
      "",
      "",
      "URI: http://localhost:3001/",
      "Version: 1",
      "Chain ID: 1",
      `Nonce: ${nonce}`,
      `Issued At: ${local}`,
      `Expiration Time: ${iso(3_600_000)}`,
      `Not Before: ${iso(-60_000)}`,
      "Request ID: abc-123",
      "Resources:",
      "- https://localhost:3001/keys",
      "- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/",
    ].join("\n");
    const { status, body } = await postVerify(baseUrl, account, message);
    expect(status).toBe(200);
    expect(body).toMatchObject({ wallet: account.address });
  });

  it("refuses over /trpc as over REST", async () => {
    const account = newAccount();
    const message = `${buildSiweMessage(account, await fetchNonce(baseUrl))}\nChain ID: 8453`;
    const signature = await account.signMessage({ message });
    const { status, body } = await request(baseUrl, "POST", "/trpc/auth.verify", {
      body: { json: { message, signature } },
    });
    expect(status).toBe(401);
    expect(body).toMatchObject({
      error: { json: { message: endExpected(11), data: { code: "UNAUTHORIZED" } } },
    });
  });

  it("refuses an EOA signature's high-s twin with 401 naming it, and logs the check high_s", async () => {
    const account = newAccount();
    const nonce = await fetchNonce(baseUrl);
    const message = buildSiweMessage(account, nonce);
    const low = parseSignature(await account.signMessage({ message }));
    const signature = serializeSignature({
      r: low.r,
      s: numberToHex(SECP256K1_N - hexToBigInt(low.s), { size: 32 }),
      yParity: low.yParity === 0 ? 1 : 0,
    });
    const before = logLines.length;
    const attack = await request(baseUrl, "POST", "/auth/verify", { body: { message, signature } });
    expect(attack.status).toBe(401);
    expect(attack.body).toEqual({
      code: "UNAUTHORIZED",
      message: "The signature is not in its canonical low-s form (EIP-2): sign the message again",
    });
    const refusals = logLines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "sign-in refused");
    expect(refusals).toEqual([expect.objectContaining({ check: "high_s" })]);
    // The wallet's own low-s signature signs in with a fresh nonce.
    const fresh = buildSiweMessage(account, await fetchNonce(baseUrl));
    expect((await postVerify(baseUrl, account, fresh)).status).toBe(200);
  });
});
