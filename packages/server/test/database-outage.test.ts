import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { newKey } from "../src/keys/secret.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { createKeyOver, verifyOver } from "./support/keys.js";
import { spawnServer } from "./support/process.js";

describe.runIf(TEST_DATABASE_URL)("PostgreSQL unreachable", () => {
  it("answers 503 SERVICE_UNAVAILABLE on REST and tRPC, still verifies cached keys, and recovers", async () => {
    if (!TEST_DATABASE_URL) return;
    const database = await createPostgresTestDatabase(TEST_DATABASE_URL);
    const name = new URL(database.url).pathname.slice(1);
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    const server = await spawnServer({ DATABASE_URL: database.url });
    try {
      const { token, wallet } = await signIn(server.baseUrl);
      const { key } = await createKeyOver(server.baseUrl, token);
      expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID"); // cached from now on

      await admin.unsafe(`alter database "${name}" allow_connections false`);
      await admin.unsafe(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
      );
      const list = await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token });
      expect(list).toMatchObject({ status: 503, body: { code: "SERVICE_UNAVAILABLE" } });
      const unknown = await request(server.baseUrl, "POST", "/api-keys/verify", {
        body: { key: newKey("kp").key },
      });
      expect(unknown).toMatchObject({ status: 503, body: { code: "SERVICE_UNAVAILABLE" } });
      const overTrpc = await fetch(
        `${server.baseUrl}/trpc/keys.list?input=${encodeURIComponent(JSON.stringify({ json: { wallet } }))}`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(overTrpc.status).toBe(503);
      // The cached key needs no database.
      expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");

      await admin.unsafe(`alter database "${name}" allow_connections true`);
      await expect
        .poll(async () => (await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token })).status, {
          interval: 100,
        })
        .toBe(200);
      expect(server.output()).not.toContain(key);
    } finally {
      await admin.unsafe(`alter database "${name}" allow_connections true`).catch(() => undefined);
      await server.stop();
      await admin.end();
      await database.drop();
    }
  });
});
