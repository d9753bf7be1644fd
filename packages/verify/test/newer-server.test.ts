import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifier } from "../src/index.js";
import { type Backend, FRAMEWORKS, startBackend } from "./support/apps.js";
import { type StandIn, startStandIn } from "./support/stand-in.js";

// A newer Keyport than this package: answers only grow (docs/upgrading.md). A code the package does not
// know, with `valid: false`, is a refusal (403 in the middleware), never "Keyport unavailable", so
// `onUnavailable: "allow"` cannot let it in; fields the package does not know are ignored.

const KEY_ID = "key_0123456789abcdefghij";
const WALLET = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const RESET_AT = () => new Date(Date.now() + 30_000).toISOString();

/** What a later Keyport adds to every answer: a plan, a wallet balance, every applied limit. */
const grown = () => ({
  plan: { id: "pro", name: "Pro" },
  balance: { included: 10, purchased: 0, refillAt: null },
  ratelimits: [{ name: "default", scope: "key", limit: 100, remaining: 99, resetAt: RESET_AT() }],
});

const ANSWERS = {
  // A code a later Keyport may add, which this version does not know.
  newer: () => ({
    valid: false,
    code: "KEY_QUARANTINED",
    keyId: KEY_ID,
    wallet: WALLET,
    expiresAt: null,
    ratelimit: null,
    permissions: [],
    credits: null,
    meta: null,
    ...grown(),
  }),
  // A wallet its operator suspended: known by name since this version (docs/operator.md#suspension).
  suspended: () => ({
    valid: false,
    code: "WALLET_SUSPENDED",
    keyId: KEY_ID,
    wallet: WALLET,
    expiresAt: null,
    ratelimit: null,
    permissions: [],
    credits: null,
    meta: null,
    ...grown(),
  }),
  valid: () => ({
    valid: true,
    code: "VALID",
    keyId: KEY_ID,
    wallet: WALLET,
    expiresAt: null,
    ratelimit: { name: "default", scope: "key", limit: 100, remaining: 99, resetAt: RESET_AT() },
    permissions: ["prices:read"],
    credits: { remaining: 5, purchased: 0, refillAt: null, reason: null },
    meta: { plan: "pro" },
    ...grown(),
  }),
  limited: () => ({
    valid: false,
    code: "RATE_LIMITED",
    keyId: KEY_ID,
    wallet: WALLET,
    expiresAt: null,
    ratelimit: { name: "burst", scope: "wallet", limit: 10, remaining: 0, resetAt: RESET_AT() },
    permissions: [],
    credits: null,
    meta: null,
    ...grown(),
  }),
  // Not a verification: `valid: true` with a code no version knows cannot be trusted to let anyone in.
  contradictory: () => ({ valid: true, code: "SOMETHING_NEW", keyId: KEY_ID, wallet: WALLET }),
} satisfies Record<string, () => Record<string, unknown>>;
type Answer = keyof typeof ANSWERS;

/** One stand-in Keyport per answer, each answering every verification with it (200, JSON). */
async function startNewerKeyports(): Promise<Record<Answer, StandIn>> {
  const entries = await Promise.all(
    (Object.keys(ANSWERS) as Answer[]).map(
      async (name) =>
        [
          name,
          await startStandIn((_req, res) => {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify(ANSWERS[name]()));
          }),
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<Answer, StandIn>;
}

function recordingLogger() {
  const lines: string[] = [];
  return { lines, logger: { warn: (line: string) => lines.push(`warn ${line}`) } };
}

let keyports: Record<Answer, StandIn>;
beforeAll(async () => {
  keyports = await startNewerKeyports();
});
afterAll(async () => {
  await Promise.all(Object.values(keyports ?? {}).map((standIn) => standIn.close()));
});

describe("createVerifier against a newer Keyport", () => {
  it("answers a code it does not know, with valid false, as UNRECOGNIZED with Keyport's code, and names it once in the log", async () => {
    const { lines, logger } = recordingLogger();
    const verifier = createVerifier({ baseUrl: keyports.newer.baseUrl, logger });
    const expected = {
      valid: false,
      code: "UNRECOGNIZED",
      serverCode: "KEY_QUARANTINED",
      keyId: KEY_ID,
      wallet: WALLET,
    };
    expect(await verifier.verify("kp_a")).toEqual(expected);
    expect(await verifier.verify("kp_b")).toEqual(expected);
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn Keyport at http:\/\/127\.0\.0\.1:\d+ answered a verification code this version of @keyport\/verify does not know \(KEY_QUARANTINED\): such keys are refused; upgrade @keyport\/verify/,
      ),
    ]);
  });

  it("reads a known code's answer with fields it does not know, and ignores them", async () => {
    const { lines, logger } = recordingLogger();
    const valid = await createVerifier({ baseUrl: keyports.valid.baseUrl, logger }).verify("kp_a");
    expect(valid).toMatchObject({ valid: true, code: "VALID", keyId: KEY_ID, permissions: ["prices:read"] });
    const limited = await createVerifier({ baseUrl: keyports.limited.baseUrl, logger }).verify("kp_a");
    expect(limited).toMatchObject({
      valid: false,
      code: "RATE_LIMITED",
      ratelimit: { limit: 10, remaining: 0 },
    });
    expect(lines).toEqual([]);
  });

  it("reads WALLET_SUSPENDED by name, without a warning", async () => {
    const { lines, logger } = recordingLogger();
    const suspended = await createVerifier({ baseUrl: keyports.suspended.baseUrl, logger }).verify("kp_a");
    expect(suspended).toMatchObject({
      valid: false,
      code: "WALLET_SUSPENDED",
      keyId: KEY_ID,
      wallet: WALLET,
    });
    expect(lines).toEqual([]);
  });

  it("still counts an answer that is not a verification as unavailable: valid true with an unknown code", async () => {
    const { logger } = recordingLogger();
    const verifier = createVerifier({ baseUrl: keyports.contradictory.baseUrl, logger });
    expect(await verifier.verify("kp_a")).toEqual({
      valid: false,
      code: "UNAVAILABLE",
      reason: "bad_answer",
      status: 200,
    });
  });
});

describe.each(FRAMEWORKS)("keyport() for %s against a newer Keyport", (framework) => {
  const backends: Backend[] = [];
  afterAll(async () => {
    await Promise.all(backends.map((backend) => backend.close()));
  });

  async function get(answer: Answer, onUnavailable: "deny" | "allow") {
    const backend = await startBackend(framework, {
      baseUrl: keyports[answer].baseUrl,
      onUnavailable,
      logger: { warn: () => {} },
    });
    backends.push(backend);
    const response = await fetch(backend.url, { headers: { authorization: "Bearer kp_a" } });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  it.each(["deny", "allow"] as const)(
    "refuses a code it does not know with 403 under onUnavailable %s, before the route",
    async (onUnavailable) => {
      const refused = await get("newer", onUnavailable);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: "FORBIDDEN", message: "Keyport refused the API key" });
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(refused.headers.get("www-authenticate")).toBeNull();
    },
  );

  it.each(["deny", "allow"] as const)(
    "refuses a suspended wallet's key with 403 saying so under onUnavailable %s",
    async (onUnavailable) => {
      const refused = await get("suspended", onUnavailable);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        code: "FORBIDDEN",
        message: "The API key's wallet is suspended by this service's operator",
      });
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(refused.headers.get("www-authenticate")).toBeNull();
    },
  );

  it("lets a VALID answer with fields it does not know in, and refuses a grown RATE_LIMITED with 429", async () => {
    const valid = await get("valid", "deny");
    expect(valid.status).toBe(200);
    expect(valid.body.keyport).toMatchObject({ valid: true, code: "VALID", keyId: KEY_ID });
    expect(valid.headers.get("ratelimit-remaining")).toBe("99");
    const limited = await get("limited", "deny");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-limit")).toBe("10");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
