import { signIn } from "@keyport/test-support/siwe";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import { createDatabase, type Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { newKey } from "../src/keys/secret.js";
import { createPostgresTestDatabase, openTestPglite, TEST_DATABASE_URL } from "./support/databases.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

// With a broken table, a 5xx on /trpc says what REST says, "Internal server
// error", never the failed query, its parameters (a wallet, a key hash) or the driver's text.

const LEAKS = /Failed query|select|insert|params|api_keys|relation|0x[0-9a-fA-F]{40}|[0-9a-f]{64}/i;

const targets: {
  kind: string;
  open(): Promise<{ database: Database; url: string; drop(): Promise<void> }>;
}[] = [
  {
    kind: "pglite",
    open: async () => {
      const database = await openTestPglite();
      return { database, url: "memory:", drop: () => database.close() };
    },
  },
];
if (TEST_DATABASE_URL) {
  targets.push({
    kind: "postgres",
    open: async () => {
      const created = await createPostgresTestDatabase(TEST_DATABASE_URL as string);
      const database = await createDatabase(created.url, "");
      return {
        database,
        url: created.url,
        drop: async () => {
          await database.close();
          await created.drop();
        },
      };
    },
  });
}

describe.each(targets)("a broken table on $kind", ({ open }) => {
  let target: Awaited<ReturnType<(typeof targets)[number]["open"]>>;
  let app: App;
  let baseUrl: string;
  let token: string;
  let wallet: string;

  beforeAll(async () => {
    target = await open();
    app = await createApp(
      parseEnv({ DATABASE_URL: target.url, WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY, LOG_LEVEL: "silent" }),
      {
        database: target.database,
      },
    );
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    ({ token, wallet } = await signIn(baseUrl));
    await target.database.db.execute(sql`alter table api_keys rename to api_keys_broken`);
  }, 60_000);
  afterAll(async () => {
    await target.database.db.execute(sql`alter table api_keys_broken rename to api_keys`);
    await app.close();
    await target.drop();
  });

  const trpc = async (path: string, init: RequestInit) => {
    const response = await fetch(`${baseUrl}/trpc/${path}`, init);
    return { status: response.status, text: await response.text() };
  };
  const post = (body: unknown) => ({
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

  it("answers 500 'Internal server error' on every tRPC path and on REST, with no SQL or parameters", async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { wallet, limit: 51 } }));
    const key = newKey("kp").key;
    const answers = [
      await trpc(`keys.list?input=${input}`, { headers: { authorization: `Bearer ${token}` } }),
      await trpc("keys.create", post({ json: { name: "broken" } })),
      await trpc("keys.verify", post({ json: { key } })),
      await trpc("keys.verify?batch=1", post({ 0: { json: { key } } })),
    ];
    for (const rest of [
      fetch(`${baseUrl}/api-keys/${wallet}?limit=51`, { headers: { authorization: `Bearer ${token}` } }),
      fetch(`${baseUrl}/api-keys`, post({ name: "broken" })),
      fetch(`${baseUrl}/api-keys/verify`, post({ key })),
    ]) {
      const response = await rest;
      answers.push({ status: response.status, text: await response.text() });
    }
    for (const { status, text } of answers) {
      expect(status, text).toBe(500);
      expect(text).toContain("Internal server error");
      expect(text).not.toMatch(LEAKS);
    }
  });
});
