import { type AgentStandIn, openAiChunk, startAgent } from "@keyport/test-support/agent-stand-in";
import {
  expectErrorEnvelope,
  type RawRequest,
  type RawResponse,
  sendRaw,
} from "@keyport/test-support/raw-http";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHART_DAYS, chatRequestSchema, MARKET_ORDERS, PRICE_CHANGE_WINDOWS } from "../../src/index.js";
import { type CoinGeckoStandIn, startCoinGecko } from "../support/coingecko-stand-in.js";
import { AGENT_KEY, COINGECKO_KEY, type RunningProxy, startProxy } from "../support/proxy.js";

// Thousands of generated requests, each sent over real HTTP byte for byte. Whatever arrives, the
// proxy answers below 500, refuses in the JSON envelope, and calls an upstream only for input it
// validated (and then only on CoinGecko's three paths, with only the listed parameters).

const APP_ORIGIN = "http://dashboard.test:5173";
const UPSTREAM_PATHS =
  /^\/(simple\/price|coins\/markets|coins\/[a-z0-9][a-z0-9._-]{0,99}\/(market_chart|market_chart\/range|ohlc))$/;
const UPSTREAM_PARAMS = new Set([
  "ids",
  "vs_currencies",
  "vs_currency",
  "include_market_cap",
  "include_24hr_vol",
  "include_24hr_change",
  "include_last_updated_at",
  "precision",
  "order",
  "per_page",
  "page",
  "sparkline",
  "price_change_percentage",
  "days",
  "names",
  "symbols",
  "include_tokens",
  "category",
  "locale",
  "interval",
  "from",
  "to",
]);

let cg: CoinGeckoStandIn;
let agent: AgentStandIn;
let proxy: RunningProxy;
const statuses = new Map<number, number>();
const responses: string[] = [];

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  agent = await startAgent();
  proxy = await startProxy({
    COINGECKO_BASE_URL: cg.baseUrl,
    COINGECKO_API_KEY: COINGECKO_KEY,
    AGENT_URL: agent.url,
    AGENT_API_KEY: AGENT_KEY,
    // Chat open to all, so generated chat bodies reach validation instead of the session check.
    CHAT_ACCESS: "public",
    ALLOWED_ORIGINS: APP_ORIGIN,
    RATE_LIMIT_PER_MINUTE: "1000000000",
    // The upstream budget and each client's share of it are not under test here (see
    // test/prices-budget.test.ts); every generated request comes from one address, and a fast
    // machine would otherwise spend the minute's share before the closing good request.
    COINGECKO_CALLS_PER_MINUTE: "1000000",
    COINGECKO_CLIENT_CALLS_PER_MINUTE: "1000000",
    COINGECKO_CALLS_PER_MONTH: "1000000000",
  });
});
afterAll(async () => {
  await proxy.close();
  await Promise.all([cg.close(), agent.close()]);
  // Nothing any generated request provoked carried an upstream key back out, or logged one.
  const everything = [...responses, proxy.transcript()].join("\n");
  expect(everything).not.toContain(COINGECKO_KEY);
  expect(everything).not.toContain(AGENT_KEY);
  expect(proxy.logLines.join("\n")).not.toContain("unhandled error");
});
beforeEach(() => {
  // A valid chat is answered whole at once, so properties never wait on a held stream.
  agent.behave({ kind: "status", status: 200, body: `${openAiChunk({ content: "ok" })}data: [DONE]\n\n` });
});

/** Sends one request and checks what must hold for every request, valid or not. */
async function probe(req: RawRequest): Promise<RawResponse> {
  const upstreamBefore = cg.requests.length;
  const agentBefore = agent.calls.length;
  const res = await sendRaw(proxy.url, req);
  responses.push(JSON.stringify(res.headers), res.text);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  expect(res.status).toBeLessThan(500);
  const newUpstream = cg.requests.slice(upstreamBefore);
  const newAgent = agent.calls.slice(agentBefore);
  if (res.status >= 400 && req.method !== "HEAD") expectErrorEnvelope(res);
  if (res.status !== 200) {
    expect(newUpstream).toEqual([]);
    expect(newAgent).toEqual([]);
  }
  for (const seen of newUpstream) {
    expect(seen.path).toMatch(UPSTREAM_PATHS);
    for (const name of seen.query.keys()) expect(UPSTREAM_PARAMS.has(name)).toBe(true);
    expect(seen.headers["x-cg-demo-api-key"]).toBe(COINGECKO_KEY);
  }
  for (const call of newAgent) {
    // Only a body that passed validation, re-serialised as a streaming chat completion, ever reaches the agent.
    const { stream, ...rest } = JSON.parse(call.body);
    expect(stream).toBe(true);
    expect(chatRequestSchema.safeParse(rest).success).toBe(true);
  }
  return res;
}

// --- generators -------------------------------------------------------------------------------

const NASTY = [
  "",
  " ",
  ".",
  "..",
  "%",
  "%%",
  "%zz",
  "%00",
  "%0d%0a",
  "%C0%AF",
  "%ff%fe",
  "%2F",
  "%2e%2e",
  "%252F",
  ",",
  ",,",
  "a,,b",
  "+",
  "true",
  "TRUE",
  "1",
  "-1",
  "0",
  "01",
  "1e3",
  "0x10",
  "1.5",
  "999999999999999999999",
  "NaN",
  "Infinity",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "prototype",
  "[]",
  "{}",
  "bitcoin",
  "Bitcoin",
  "usd",
  "full",
  "max",
  "../x",
  "a/b",
  "\u0000",
  "\u202e",
  "\ud800",
  "😀",
];

/** Strings a client might send: printable, any code point (lone surrogates too), classic troublemakers, large. */
const oddText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 10 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 2_000, maxLength: 6_000 }) },
);

/** Puts a string on the wire: fully percent-encoded (UTF-8), or loosely (stray `%`, `&`, `=` kept). */
function wire(value: string, loose: boolean): string {
  const bytes = Buffer.from(value, "utf8");
  let out = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    const keep = loose ? byte > 0x20 && byte < 0x7f && char !== "#" : /[A-Za-z0-9._~-]/.test(char);
    out += keep ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const param = (names: readonly string[], values: fc.Arbitrary<string>) =>
  fc.record({
    name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: oddText }),
    value: fc.oneof(values, oddText),
    form: fc.constantFrom("pair", "pair", "pair", "bare", "empty"),
    loose: fc.boolean(),
  });

/** A query string of generated parameters (known names mostly, wrong values often). */
function queryOf(names: readonly string[], values: fc.Arbitrary<string>) {
  return fc
    .tuple(fc.array(param(names, values), { maxLength: 8 }), fc.constantFrom("&", "&", "&&", ";"))
    .map(([params, separator]) =>
      params
        .map(({ name, value, form, loose }) =>
          form === "bare"
            ? wire(name, loose)
            : form === "empty"
              ? `${wire(name, loose)}=`
              : `${wire(name, loose)}=${wire(value, loose)}`,
        )
        .join(separator),
    );
}

const coinId = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,12}$/);
const idList = fc.array(coinId, { minLength: 1, maxLength: 4 }).map((ids) => ids.join(","));
const currency = fc.constantFrom("usd", "eur", "btc", "USD");
const flag = fc.constantFrom("true", "false");

const SIMPLE_NAMES = [
  "ids",
  "vs_currencies",
  "include_market_cap",
  "include_24hr_vol",
  "include_24hr_change",
  "include_last_updated_at",
  "precision",
] as const;
const MARKETS_NAMES = [
  "vs_currency",
  "ids",
  "order",
  "per_page",
  "page",
  "sparkline",
  "price_change_percentage",
] as const;
const knownValue = fc.oneof(
  idList,
  currency,
  flag,
  fc.constantFrom(
    ...MARKET_ORDERS,
    ...PRICE_CHANGE_WINDOWS,
    ...CHART_DAYS,
    "full",
    "18",
    "250",
    "1000",
    "daily",
    "hourly",
    "5m",
    "2024-01-01",
    "2024-02-01T10:30",
    "1704067200",
  ),
);

const RUNS = { numRuns: 400, endOnFailure: true } as const;

// --- properties -------------------------------------------------------------------------------

describe("generated market-data requests", () => {
  it("/api/prices/simple: any query is answered below 500, and only validated ones reach CoinGecko", async () => {
    await fc.assert(
      fc.asyncProperty(queryOf(SIMPLE_NAMES, knownValue), async (query) => {
        await probe({ path: `/api/prices/simple?${query}` });
      }),
      RUNS,
    );
  });

  it("/api/prices/markets: any query is answered below 500, and only validated ones reach CoinGecko", async () => {
    await fc.assert(
      fc.asyncProperty(queryOf(MARKETS_NAMES, knownValue), async (query) => {
        await probe({ path: `/api/prices/markets?${query}` });
      }),
      RUNS,
    );
  });

  it("/api/prices/chart/:id: any id and query are answered below 500, and only validated ones reach CoinGecko", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(coinId, oddText),
        fc.boolean(),
        queryOf(["vs_currency", "days"], knownValue),
        async (id, loose, query) => {
          await probe({ path: `/api/prices/chart/${wire(id, loose)}?${query}` });
        },
      ),
      RUNS,
    );
  });

  it.each([
    ["range", ["vs_currency", "from", "to", "interval", "precision"]],
    ["ohlc", ["vs_currency", "days", "interval", "precision"]],
  ] as const)(
    "/api/prices/%s/:id: any id and query are answered below 500, and only validated ones reach CoinGecko",
    async (route, names) => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(coinId, oddText),
          fc.boolean(),
          queryOf(names, knownValue),
          async (id, loose, query) => {
            await probe({ path: `/api/prices/${route}/${wire(id, loose)}?${query}` });
          },
        ),
        RUNS,
      );
    },
  );
});

describe("requests that are invalid by construction", () => {
  // Each case starts from a valid request and breaks exactly one rule, so a 400 is the only answer.
  const validSimple = fc.record({ ids: idList, vs_currencies: currency });
  const badId = fc.oneof(
    fc.constantFrom(
      "",
      ".",
      "..",
      "-x",
      "_x",
      ".x",
      "Bitcoin",
      "a/b",
      "a b",
      "a%b",
      "a:b",
      "é",
      "a".repeat(101),
    ),
    fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^[a-z0-9][a-z0-9._-]{0,99}$/.test(s)),
  );
  const unknownName = oddText.filter((name) => name.length > 0 && !UPSTREAM_PARAMS.has(name));
  const breakage = fc.oneof(
    badId
      // Appended to a comma-separated list, "a,b" is two good ids: keep only text with a bad part.
      .filter((id) => id.split(",").some((part) => !/^[a-z0-9][a-z0-9._-]{0,99}$/.test(part)))
      .map((id) => (q: Record<string, string>) => ({ ...q, ids: `${q.ids},${id}` })),
    unknownName.chain((name) =>
      oddText.map((value) => (q: Record<string, string>) => ({ ...q, [name]: value })),
    ),
    fc.constantFrom<(q: Record<string, string>) => Record<string, string>>(
      ({ ids: _ids, ...q }) => q,
      ({ vs_currencies: _vs, ...q }) => q,
      (q) => ({ ...q, include_market_cap: "yes" }),
      (q) => ({ ...q, precision: "19" }),
      (q) => ({ ...q, vs_currencies: "us d" }),
      (q) => ({ ...q, vs_currencies: Array.from({ length: 11 }, (_, i) => `c${i}`).join(",") }),
      (q) => ({ ...q, ids: Array.from({ length: 101 }, (_, i) => `c${i}`).join(",") }),
    ),
  );

  it("/api/prices/simple with one rule broken: 400 in the envelope with issues, CoinGecko untouched", async () => {
    await fc.assert(
      fc.asyncProperty(validSimple, breakage, async (valid, breakIt) => {
        const query = Object.entries(breakIt(valid))
          .map(([name, value]) => `${wire(name, false)}=${wire(value, false)}`)
          .join("&");
        const res = await probe({ path: `/api/prices/simple?${query}` });
        expect(res.status).toBe(400);
        expect(JSON.parse(res.text)).toMatchObject({ code: "BAD_REQUEST", issues: expect.any(Array) });
      }),
      RUNS,
    );
  });

  it("/api/prices/chart/:id with a bad id or days: 400, CoinGecko untouched", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          badId.filter((id) => id !== "" && id !== "." && id !== "..").map((id) => ({ id, days: "1" })),
          fc
            .string()
            // Any whole number of days from 1 (no leading zero, at most 6 digits) or `max` is valid.
            .filter((d) => !/^(max|[1-9][0-9]{0,5})$/.test(d))
            .map((days) => ({ id: "bitcoin", days })),
        ),
        async ({ id, days }) => {
          const res = await probe({
            path: `/api/prices/chart/${wire(id, false)}?vs_currency=usd&days=${wire(days, false)}`,
          });
          expect(res.status).toBe(400);
        },
      ),
      RUNS,
    );
  });
});

describe("generated paths, methods and headers", () => {
  const segment = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom("api", "prices", "simple", "markets", "chart", "chat", "healthz", "bitcoin"),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom("", ".", "..", "%2e", "%2e%2e", "%2F", "%5C", "\\", ";", ";x=1", "?", "%3F"),
    },
    { weight: 2, arbitrary: oddText.map((s) => wire(s, true)) },
  );
  const method = fc.constantFrom(
    "GET",
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "HEAD",
    "OPTIONS",
    "TRACE",
    "PROPFIND",
  );

  it("any path and method is answered below 500; refusals are in the envelope", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("/", "//", "/./", "/../"),
        method,
        fc.option(queryOf(["ids", "vs_currencies", "vs_currency", "days"], knownValue), { nil: undefined }),
        async (segments, separator, verb, query) => {
          const path = `/${segments.join(separator)}${query === undefined ? "" : `?${query}`}`;
          await probe({ method: verb, path });
        },
      ),
      { ...RUNS, numRuns: 600 },
    );
  });

  const headerName = fc
    .stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,40}$/)
    .filter(
      (name) =>
        !["content-length", "transfer-encoding", "connection", "expect", "upgrade", "host"].includes(
          name.toLowerCase(),
        ),
    );
  const headerValue = fc.oneof(
    fc.constantFrom(...NASTY.filter((v) => /^[\x20-\x7e]*$/.test(v))),
    fc.stringMatching(/^[\x20-\x7e\t]{0,200}$/),
    fc.string({ minLength: 1_000, maxLength: 4_000 }),
    fc
      .uint8Array({ maxLength: 40 })
      .map((bytes) => Buffer.from(bytes.map((b) => (b < 0x20 || b === 0x7f ? 0x41 : b))).toString("latin1")),
  );
  const origin = fc.option(
    fc.oneof(
      fc.constantFrom(
        APP_ORIGIN,
        "null",
        "https://evil.test",
        "http://dashboard.test:5173/",
        "http://DASHBOARD.test:5173",
        "file://",
        "::::",
        "http://[::1",
        "*",
      ),
      headerValue,
    ),
    { nil: undefined },
  );
  const host = fc.option(
    fc.oneof(
      fc.constantFrom("", "evil.test", "[::1", "a b", "::::", "localhost:99999", "%00", "x".repeat(300)),
      headerValue,
    ),
    { nil: undefined },
  );
  const target = fc.constantFrom(
    { method: "GET", path: "/api/prices/simple?ids=bitcoin&vs_currencies=usd" },
    { method: "GET", path: "/api/prices/markets?vs_currency=usd" },
    { method: "GET", path: "/api/prices/chart/bitcoin?vs_currency=usd&days=1" },
    {
      method: "POST",
      path: "/api/chat",
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    },
    { method: "OPTIONS", path: "/api/chat" },
    { method: "GET", path: "/healthz" },
  );

  it("any extra headers, Origin and Host (up to 8 KiB of them) are answered below 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        target,
        fc.dictionary(headerName, headerValue, { maxKeys: 6 }),
        origin,
        host,
        fc.constantFrom(
          "application/json",
          "APPLICATION/JSON; charset=latin1",
          "text/plain",
          "",
          "application/json;;;",
        ),
        async (req, extra, originValue, hostValue, contentType) => {
          const headers: Record<string, string> = { ...extra };
          if (originValue !== undefined) headers.origin = originValue;
          if (hostValue !== undefined) headers.host = hostValue;
          if (req.body !== undefined) headers["content-type"] = contentType;
          await probe({ ...req, headers });
        },
      ),
      { ...RUNS, numRuns: 500 },
    );
  });
});

describe("generated chat bodies", () => {
  const validBody = fc.record(
    {
      messages: fc.array(
        fc.record({
          role: fc.constantFrom("user", "assistant"),
          content: fc.string({ minLength: 1, maxLength: 200 }),
        }),
        { minLength: 1, maxLength: 5 },
      ),
      sessionId: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
    },
    { requiredKeys: ["messages"] },
  );
  const mutated = fc
    .tuple(validBody, fc.string(), fc.jsonValue({ maxDepth: 3 }))
    .chain(([body, key, value]) =>
      fc.constantFrom<unknown>(
        { ...body, [key]: value },
        { ...body, messages: [...body.messages, value] },
        { ...body, messages: value },
        { ...body, sessionId: value },
        { messages: [{ role: value, content: "hi" }] },
        { messages: [{ role: "user", content: value }] },
        value,
      ),
    );
  const body = fc.oneof(
    validBody.map((value) => JSON.stringify(value)),
    mutated.map((value) => JSON.stringify(value) ?? "undefined"),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    oddText,
    fc.constantFrom(
      "",
      "{",
      '{"messages":',
      "[".repeat(5_000),
      `${"[".repeat(3_000)}${"]".repeat(3_000)}`,
      '{"__proto__":{"messages":[]}}',
      '{"messages":[{"role":"user","content":"hi"}],"messages":[]}',
      "\ufeff{}",
      "null",
      "1e999",
    ),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  );
  const contentType = fc.option(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/json;;;",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      "",
    ),
    { nil: undefined },
  );

  it("any body and content type is answered below 500; only valid bodies reach the agent", async () => {
    await fc.assert(
      fc.asyncProperty(body, contentType, async (text, type) => {
        const headers: Record<string, string> = {};
        if (type !== undefined) headers["content-type"] = type;
        const res = await probe({
          method: "POST",
          path: "/api/chat",
          headers,
          body: Buffer.from(text, "latin1"),
        });
        if (res.status === 200) expect(res.text).toBe('data: {"delta":"ok"}\n\nevent: done\ndata: {}\n\n');
      }),
      { ...RUNS, numRuns: 600 },
    );
  });

  it("a valid body with one rule broken gets 400 and the agent is not called", async () => {
    const broken = fc.oneof(
      validBody.chain((valid) =>
        fc.constantFrom<unknown>(
          { ...valid, model: "gpt" },
          { ...valid, messages: [] },
          { ...valid, messages: [...valid.messages, { role: "tool", content: "x" }] },
          { ...valid, messages: [...valid.messages, { role: "system", content: "x" }] },
          { ...valid, messages: [...valid.messages, { role: "user", content: "" }] },
          { ...valid, messages: [...valid.messages, { role: "user", content: "x".repeat(8_001) }] },
          { ...valid, messages: [...valid.messages, { role: "user", content: "x", extra: 1 }] },
          { ...valid, sessionId: "../etc" },
          { ...valid, sessionId: 1 },
          { ...valid, messages: Array.from({ length: 51 }, () => ({ role: "user", content: "x" })) },
          valid.messages,
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(broken, async (value) => {
        const res = await probe({
          method: "POST",
          path: "/api/chat",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(value),
        });
        expect(res.status).toBe(400);
      }),
      { ...RUNS, numRuns: 300 },
    );
  });
});

describe("after every generated request", () => {
  it("still serves good requests, and refused far more than it relayed", async () => {
    const good = await probe({ path: "/api/prices/simple?ids=bitcoin&vs_currencies=usd" });
    expect(good.status).toBe(200);
    const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    expect(total).toBeGreaterThan(3_000);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1_000);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
  });
});
