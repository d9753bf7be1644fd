import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { signIn } from "@keyport/test-support/siwe";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { describeDatabases } from "./support/databases.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

/** `depth` arrays inside each other around `inner`, as JSON text. */
function nested(depth: number, inner = "1"): string {
  return `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;
}

// Raw JSON text: JSON.stringify would escape a lone surrogate, and the attack sent the escapes.
const HOSTILE_META: Array<{ name: string; meta: string }> = [
  { name: "a lone surrogate in a value", meta: '{"a":"\\ud800"}' },
  { name: "a lone surrogate in a key", meta: '{"\\udc00":1}' },
  { name: "a lone surrogate deep inside", meta: '{"a":[{"b":["x\\ud83d"]}]}' },
  { name: "a NUL in a value", meta: '{"a":"x\\u0000y"}' },
  { name: "a NUL in a key", meta: '{"\\u0000":1}' },
  { name: "a NUL deep inside", meta: '{"a":{"b":["\\u0000"]}}' },
  { name: "a key named __proto__", meta: '{"__proto__":{"admin":true}}' },
  { name: "a nested key named __proto__", meta: '{"a":{"__proto__":1}}' },
];

describeDatabases("hostile input", (target) => {
  const lines: string[] = [];
  let app: App;
  let baseUrl: string;
  let token: string;
  let keyId: string;

  beforeAll(async () => {
    app = await createApp(
      parseEnv({
        DATABASE_URL: target.url,
        WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
        NONCE_RATE_LIMIT: "off",
      }),
      {
        database: target.database,
        logger: createLogger("info", logSink(lines)),
      },
    );
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    ({ token } = await signIn(baseUrl));
    const created = await request(baseUrl, "POST", "/api-keys", { token, body: { name: "target" } });
    keyId = (created.body as { apiKey: { id: string } }).apiKey.id;
  });
  afterAll(() => app.close());

  function expectCleanLog(from: number): void {
    for (const line of lines.slice(from)) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(line).not.toMatch(/"params"|"stack"|insert into|update "api_keys"/i);
      expect(entry.level).toBeLessThan(50);
    }
  }

  for (const { name, meta } of HOSTILE_META) {
    it(`refuse ${name} in meta with 400 on REST create and update, and on tRPC`, async () => {
      const from = lines.length;
      const create = await request(baseUrl, "POST", "/api-keys", {
        token,
        rawBody: `{"name":"m","meta":${meta}}`,
        headers: { "content-type": "application/json" },
      });
      expect(create.status).toBe(400);
      expect(create.body).toMatchObject({ code: "BAD_REQUEST", message: "Input validation failed" });
      const patch = await request(baseUrl, "PATCH", `/api-keys/${keyId}`, {
        token,
        rawBody: `{"meta":${meta}}`,
        headers: { "content-type": "application/json" },
      });
      expect(patch.status).toBe(400);
      const trpc = await request(baseUrl, "POST", "/trpc/keys.create", {
        token,
        rawBody: `{"json":{"name":"m","meta":${meta}}}`,
        headers: { "content-type": "application/json" },
      });
      expect(trpc.status).toBe(400);
      expectCleanLog(from);
    });
  }

  // Raw JSON text again: the escapes as the attack sent them.
  const HOSTILE_TEXT = ["x\\u0000y", "x\\ud800", "\\udc00x"];

  for (const text of HOSTILE_TEXT) {
    it(`refuse "${text}" in a webhook's URL and description with 400 on REST and tRPC, never a 500`, async () => {
      const from = lines.length;
      let wallet = "";
      ({ token, wallet } = await signIn(baseUrl));
      const bodies = [
        `{"url":"https://example.com/${text}","events":["key.created"]}`,
        `{"url":"https://example.com/hook","events":["key.created"],"description":"${text}"}`,
      ];
      for (const body of bodies) {
        const rest = await request(baseUrl, "POST", `/api-keys/${wallet}/webhooks`, {
          token,
          rawBody: body,
          headers: { "content-type": "application/json" },
        });
        expect(rest.status).toBe(400);
        expect(rest.body).toMatchObject({ code: "BAD_REQUEST", message: "Input validation failed" });
        const trpc = await request(baseUrl, "POST", "/trpc/webhooks.create", {
          token,
          rawBody: `{"json":${body.replace("{", `{"wallet":"${wallet}",`)}}`,
          headers: { "content-type": "application/json" },
        });
        expect(trpc.status).toBe(400);
      }
      expectCleanLog(from);
    });
  }

  it("refuse JSON nested over 64 levels with 400 on REST and tRPC, and accept 64", async () => {
    const from = lines.length;
    for (const depth of [65, 3000]) {
      const rest = await request(baseUrl, "POST", "/api-keys", {
        token,
        rawBody: `{"name":"deep","meta":{"a":${nested(depth - 2)}}}`,
        headers: { "content-type": "application/json" },
      });
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ code: "BAD_REQUEST" });
      const patch = await request(baseUrl, "PATCH", `/api-keys/${keyId}`, {
        token,
        rawBody: `{"meta":{"a":${nested(depth - 2)}}}`,
        headers: { "content-type": "application/json" },
      });
      expect(patch.status).toBe(400);
      const trpc = await request(baseUrl, "POST", "/trpc/keys.create", {
        token,
        rawBody: `{"json":{"name":"deep","meta":{"a":${nested(depth - 2)}}}}`,
        headers: { "content-type": "application/json" },
      });
      expect(trpc.status).toBe(400);
      // A query's input rides in the URL, which Node bounds at 16 KiB of headers: 200 levels fit.
      const query = await request(
        baseUrl,
        "GET",
        `/trpc/keys.list?input=${encodeURIComponent(`{"json":${nested(Math.min(depth, 200))}}`)}`,
        { token },
      );
      expect(query.status).toBe(400);
    }
    // 64 levels in all is the bound, not one past it: the meta is then just too large or fine.
    const atBound = await request(baseUrl, "POST", "/api-keys", {
      token,
      rawBody: `{"name":"deep","meta":{"a":${nested(62)}}}`,
      headers: { "content-type": "application/json" },
    });
    expect(atBound.status).toBe(201);
    expectCleanLog(from);
  });
});

describeDatabases("a failed query's log line", (target) => {
  const lines: string[] = [];
  let app: App;
  let baseUrl: string;
  let token: string;

  beforeAll(async () => {
    app = await createApp(
      parseEnv({
        DATABASE_URL: target.url,
        WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
        NONCE_RATE_LIMIT: "off",
      }),
      {
        database: target.database,
        logger: createLogger("info", logSink(lines)),
      },
    );
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    ({ token } = await signIn(baseUrl));
    await target.database.db.execute(sql`alter table api_keys rename to api_keys_broken`);
  });
  afterAll(async () => {
    await target.database.db.execute(sql`alter table api_keys_broken rename to api_keys`);
    await app.close();
  });

  it("names the error (name, code, message) with no stack, no statement and no parameters", async () => {
    const from = lines.length;
    const rest = await request(baseUrl, "POST", "/api-keys", { token, body: { name: "lost" } });
    expect(rest.status).toBe(500);
    const trpc = await request(baseUrl, "POST", "/trpc/keys.create", {
      token,
      body: { json: { name: "lost" } },
    });
    expect(trpc.status).toBe(500);
    const failures = lines
      .slice(from)
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: Record<string, unknown> })
      .filter((entry) => entry.level >= 50);
    expect(failures.map((entry) => entry.msg)).toEqual(["procedure failed", "procedure failed"]);
    for (const { err } of failures) {
      expect(Object.keys(err ?? {}).sort()).toEqual(expect.arrayContaining(["message", "name"]));
      expect(Object.keys(err ?? {}).every((key) => ["name", "code", "message"].includes(key))).toBe(true);
    }
    const text = lines.slice(from).join("\n");
    expect(text).not.toMatch(/"params"|"parameters"|"stack"|"query"|Failed query|insert into|[0-9a-f]{64}/i);
  });
});
