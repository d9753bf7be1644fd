import { REQUEST_ID_HEADER } from "@keyport/errors";
import { sendRaw } from "@keyport/test-support/raw-http";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/db/database.js";
import { newKey } from "../src/keys/secret.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { startTestServer } from "./support/server.js";
import { answerOf, startReference } from "./support/trpc-parity.js";

// The tRPC keys.verify fast path answers an outage as tRPC's own handler does (docs/decisions.md, "tRPC
// verify fast path"). Slow tier: a PostgreSQL database of its own, closed to connections mid-test;
// trpc-verify-parity.test.ts checks the other answers in `pnpm test`.

describe.runIf(TEST_DATABASE_URL)("tRPC keys.verify fast path, PostgreSQL unreachable", () => {
  it("answers 503 exactly as tRPC's own handler does (an unknown key needs the database)", async () => {
    if (!TEST_DATABASE_URL) return;
    const created = await createPostgresTestDatabase(TEST_DATABASE_URL);
    const name = new URL(created.url).pathname.slice(1);
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    const database = await createDatabase(created.url, "");
    const server = await startTestServer({ database, url: created.url });
    const reference = await startReference(server);
    try {
      await admin.unsafe(`alter database "${name}" allow_connections false`);
      await admin.unsafe(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
      );
      for (const batch of [false, true]) {
        const path = batch ? "/trpc/keys.verify,keys.verify?batch=1" : "/trpc/keys.verify";
        const send = (baseUrl: string) => {
          const input = () => ({ json: { key: newKey("kp").key } });
          const body = JSON.stringify(batch ? { 0: input(), 1: input() } : input());
          const headers = { "content-type": "application/json", [REQUEST_ID_HEADER]: "outage-1" };
          return sendRaw(baseUrl, { method: "POST", path, headers, body });
        };
        const fast = answerOf(await send(server.baseUrl));
        expect(fast.status).toBe(503);
        expect(fast).toEqual(answerOf(await send(reference.baseUrl)));
      }
    } finally {
      await admin.unsafe(`alter database "${name}" allow_connections true`).catch(() => undefined);
      await reference.close();
      await server.close();
      await database.close();
      await admin.end();
      await created.drop();
    }
  });
});
