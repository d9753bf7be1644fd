import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runOk } from "@keyport/test-support/consumer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifier, decide, type VerifyOptions } from "../src/index.js";
import { type Keyport, startKeyport } from "./support/keyport.js";
import { type StandIn, startStandIn } from "./support/stand-in.js";

// Slow tier. Verification answers only grow (docs/upgrading.md): the previous release of @keyport/verify,
// installed from its packed tarball (test/fixtures, made by scripts/pack-previous-release.mjs), verifies
// keys in every state against today's server, and under onUnavailable "allow" lets in only what is
// VALID. This package, run beside it on the same cases, shows what a backend gains by upgrading.

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const SLOW = 240_000;

/**
 * Codes today's server answers that a release cannot read, because it came before answers with an
 * unknown code were read as refusals (`UNRECOGNIZED`): it counts them as "Keyport unavailable". A release
 * with that rule has no entry; moving the baseline past 0.1.0 empties this.
 */
const BLIND_SPOTS: Record<string, readonly string[]> = { "0.1.0": ["IP_NOT_ALLOWED", "WALLET_SUSPENDED"] };

/** One verification to make: a key in some state, what the request asks, and the code it must get. */
interface Case {
  name: string;
  key: string;
  options?: VerifyOptions;
  /** Verifications before the one compared (to spend a window). */
  before?: number;
  expected: string;
  /** The middleware's answer to a refusal (the VALID case passes). */
  status?: number;
  /** Against a stand-in newer server rather than today's. */
  newer?: true;
}

/** What a release's verifier and decide() made of one case, as the script prints it. */
interface Outcome {
  name: string;
  result: { valid: boolean; code: string; [field: string]: unknown };
  decision: { pass: boolean; status?: number };
}

/** The script the installed release runs: every case through its verifier, then its decide() under "allow". */
const SCRIPT = `
import { readFileSync, writeFileSync } from "node:fs";
import { createVerifier, decide } from "@keyport/verify";
const { baseUrl, newerUrl, cases } = JSON.parse(readFileSync("cases.json", "utf8"));
const logger = { warn() {}, info() {} };
const outcomes = [];
for (const c of cases) {
  const verifier = createVerifier({ baseUrl: c.newer ? newerUrl : baseUrl, logger });
  for (let i = 0; i < (c.before ?? 0); i++) await verifier.verify(c.key, c.options);
  const result = await verifier.verify(c.key, c.options);
  const decision = await decide(verifier, c.key, { onUnavailable: "allow", asks: c.options, logger, trustProxy: false });
  outcomes.push({ name: c.name, result, decision: { pass: decision.pass, status: decision.status } });
}
writeFileSync("outcomes.json", JSON.stringify(outcomes));
`;

/** Waits (no longer than `deadline`) until the server answers EXPIRED for `key`. */
async function expiredBy(verifier: ReturnType<typeof createVerifier>, key: string, deadline: number) {
  while ((await verifier.verify(key)).code !== "EXPIRED") {
    if (Date.now() > deadline) throw new Error("the key did not expire in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the previous release of @keyport/verify against today's server", () => {
  let keyport: Keyport;
  let newer: StandIn;
  let dir: string;
  let version: string;
  let cases: Case[];
  let previous: Outcome[];

  beforeAll(async () => {
    keyport = await startKeyport();
    // A later issue's code, from a stand-in: today's server has none it does not name.
    newer = await startStandIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          valid: false,
          code: "WALLET_SUSPENDED",
          keyId: "key_0123456789abcdefghij",
          wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
          expiresAt: null,
          ratelimit: null,
          permissions: [],
          credits: null,
          meta: null,
        }),
      );
    });
    ({ version } = JSON.parse(await readFile(join(FIXTURES, "previous-release.json"), "utf8")));
    const full = await keyport.createKey({
      name: "every field",
      permissions: ["prices:read"],
      rateLimit: { limit: 100, windowSeconds: 60 },
      credits: { remaining: 1000, refill: { interval: "daily", amount: 1000 } },
      meta: { plan: "pro" },
    });
    const revoked = await keyport.createKey({ name: "revoked" });
    await keyport.revokeKey(revoked.id);
    const expiring = await keyport.createKey({
      name: "expiring",
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    const limited = await keyport.createKey({ name: "limited", rateLimit: { limit: 1, windowSeconds: 60 } });
    const spent = await keyport.createKey({ name: "spent", credits: { remaining: 1 } });
    const fenced = await keyport.createKey({ name: "fenced", allowedIps: ["10.0.0.0/8"] });
    cases = [
      { name: "valid", key: full.key, options: { permissions: ["prices:read"] }, expected: "VALID" },
      { name: "not found", key: "kp_nope", expected: "NOT_FOUND", status: 401 },
      { name: "revoked", key: revoked.key, expected: "REVOKED", status: 401 },
      { name: "expired", key: expiring.key, expected: "EXPIRED", status: 401 },
      {
        name: "ip",
        key: fenced.key,
        options: { ip: "203.0.113.7" },
        expected: "IP_NOT_ALLOWED",
        status: 403,
      },
      {
        name: "permissions",
        key: full.key,
        options: { permissions: ["prices:write"] },
        expected: "INSUFFICIENT_PERMISSIONS",
        status: 403,
      },
      { name: "credits", key: spent.key, options: { cost: 5 }, expected: "USAGE_EXCEEDED", status: 429 },
      { name: "rate", key: limited.key, before: 1, expected: "RATE_LIMITED", status: 429 },
      { name: "newer code", key: "kp_any", expected: "WALLET_SUSPENDED", status: 403, newer: true },
    ];
    // The expiring key has expired for the server before any release asks about it.
    const probe = createVerifier({ baseUrl: keyport.baseUrl, logger: { warn: () => {} } });
    await expiredBy(probe, expiring.key, Date.now() + 10_000);

    dir = await mkdtemp(join(tmpdir(), "keyport-previous-release-"));
    const manifest = {
      name: "keyport-previous-release",
      private: true,
      type: "module",
      dependencies: { "@keyport/verify": `file:${join(FIXTURES, "keyport-verify-previous.tgz")}` },
    };
    await writeFile(join(dir, "package.json"), JSON.stringify(manifest));
    await writeFile(join(dir, "main.mjs"), SCRIPT);
    await writeFile(
      join(dir, "cases.json"),
      JSON.stringify({ baseUrl: keyport.baseUrl, newerUrl: newer.baseUrl, cases }),
    );
    await runOk("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], dir, SLOW);
    await runOk("node", ["main.mjs"], dir, 60_000);
    previous = JSON.parse(await readFile(join(dir, "outcomes.json"), "utf8"));
  }, 2 * SLOW);

  afterAll(async () => {
    await newer?.close();
    await keyport?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("installs the release the fixture names", async () => {
    const installed = JSON.parse(
      await readFile(join(dir, "node_modules/@keyport/verify/package.json"), "utf8"),
    );
    expect(installed.version).toBe(version);
  });

  it("reads every answer of today's server as that code, and lets only VALID in under allow", () => {
    const blind = BLIND_SPOTS[version] ?? [];
    for (const c of cases) {
      const outcome = previous.find((entry) => entry.name === c.name);
      if (blind.includes(c.expected)) {
        // The gap docs/upgrading.md tells backends on "allow" to close by upgrading first.
        expect(outcome?.result, c.name).toMatchObject({
          valid: false,
          code: "UNAVAILABLE",
          reason: "bad_answer",
        });
        continue;
      }
      const code = c.newer ? "UNRECOGNIZED" : c.expected;
      expect(outcome?.result, c.name).toMatchObject({ valid: c.expected === "VALID", code });
      expect(outcome?.decision, c.name).toEqual(
        c.expected === "VALID" ? { pass: true } : { pass: false, status: c.status },
      );
    }
  });

  it("is answered with every field it reads: the VALID answer carries permissions, credits, window and meta", () => {
    const valid = previous.find((entry) => entry.name === "valid");
    expect(valid?.result).toMatchObject({
      permissions: ["prices:read"],
      credits: { remaining: expect.any(Number), refillAt: expect.any(String) },
      ratelimit: { limit: 100, remaining: expect.any(Number), resetAt: expect.any(String) },
      meta: { plan: "pro" },
    });
  });

  it("is closed by this version: every refusal, a newer server's code included, refused under allow", async () => {
    const logger = { warn: () => {} };
    for (const c of cases) {
      if (c.expected === "VALID") continue;
      const verifier = createVerifier({ baseUrl: c.newer ? newer.baseUrl : keyport.baseUrl, logger });
      for (let i = 0; i < (c.before ?? 0); i++) await verifier.verify(c.key, c.options);
      const decision = await decide(verifier, c.key, {
        onUnavailable: "allow",
        asks: c.options,
        logger,
        trustProxy: false,
        topUp: undefined,
      });
      expect({ pass: decision.pass, status: decision.pass ? undefined : decision.status }, c.name).toEqual({
        pass: false,
        status: c.status,
      });
    }
  });
});
