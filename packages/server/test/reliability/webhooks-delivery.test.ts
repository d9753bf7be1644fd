import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "@keyport/test-support/http";
import { freePort } from "@keyport/test-support/port";
import { signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../src/db/database.js";
import { webhookDeliveries, webhooks } from "../../src/db/schema/index.js";
import { enqueueWebhookSql } from "../../src/webhooks/enqueue.js";
import { encryptSecret, newWebhookSecret } from "../../src/webhooks/secret.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "../support/databases.js";
import { createKeyOver } from "../support/keys.js";
import { type ServerProcess, spawnServer } from "../support/process.js";
import { pollFor, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";
import { TEST_WEBHOOKS_KEY } from "../support/webhooks-key.js";

const KEY = Buffer.from(TEST_WEBHOOKS_KEY, "base64");
const WALLET = "0x00000000000000000000000000000000000000cc";
const ENDPOINT = "wh_crash000000000000000000";
// A killed send waits for its claim's 30 s lease (webhooks/claim.ts) before it is tried again.
const AFTER_LEASE_MS = 90_000;
// tsx compiles the server at each start: minutes on a machine shared by many test runs.
const START_MS = 180_000;
const TEST_MS = 600_000;

/** A database the server processes share: PGlite in a folder (one process at a time), or PostgreSQL. */
interface ProcessDatabase {
  env: Record<string, string>;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

async function processDatabase(kind: "pglite" | "postgres"): Promise<ProcessDatabase> {
  if (kind === "postgres" && TEST_DATABASE_URL) {
    const created = await createPostgresTestDatabase(TEST_DATABASE_URL);
    return {
      env: { DATABASE_URL: created.url },
      open: () => createDatabase(created.url, ""),
      remove: created.drop,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "keyport-webhooks-"));
  return {
    env: { DATA_DIR: dir },
    open: () => createDatabase(undefined, dir),
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function addEndpoint(database: Database, url: string): Promise<string> {
  const secret = newWebhookSecret();
  await database.db.insert(webhooks).values({
    id: ENDPOINT,
    wallet: WALLET,
    url,
    events: ["key.revoked"],
    secret: encryptSecret(KEY, secret),
  });
  return secret;
}

async function enqueue(database: Database, keyId: string): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.execute(
      enqueueWebhookSql({ wallet: WALLET, type: "key.revoked", keyId, at: new Date(), data: { keyId } }),
    );
  });
}

const kinds: ("pglite" | "postgres")[] = TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

describe.each(kinds)("webhook delivery across a SIGKILL [%s]", (kind) => {
  const servers: ServerProcess[] = [];
  const receivers: WebhookReceiver[] = [];
  let database: ProcessDatabase | undefined;
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop("SIGKILL")));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    await database?.remove();
  });

  const start = async (env: Record<string, string>) => {
    const server = await spawnServer(
      { ...env, WEBHOOKS_ALLOW_PRIVATE: "true", NONCE_RATE_LIMIT: "off" },
      START_MS,
    );
    servers.push(server);
    return server;
  };

  it(
    "sends again, under the same webhook-id, a delivery whose process was killed mid-send",
    async () => {
      database = await processDatabase(kind);
      const hook = await startWebhookReceiver([]);
      receivers.push(hook);
      // The first request is never answered: the process dies while it waits.
      hook.answerNext(() => undefined);
      const setup = await database.open();
      hook.setSecrets([await addEndpoint(setup, hook.url)]);
      await enqueue(setup, "key_killed");
      await setup.close();

      const first = await start(database.env);
      await pollFor(() => hook.received[0], START_MS);
      await first.stop("SIGKILL");
      const second = await start(database.env);
      await pollFor(() => hook.received[1], AFTER_LEASE_MS);
      expect(await second.stop()).toBe(0);

      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]?.headers["webhook-id"]).toBe(hook.received[0]?.headers["webhook-id"]);
      expect(hook.received[1]?.body).toBe(hook.received[0]?.body);
      expect(hook.received.every((request) => request.verifiedBy.length === 1)).toBe(true);
      const check = await database.open();
      try {
        const [row] = await check.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, ENDPOINT));
        expect(row).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 204 });
      } finally {
        await check.close();
      }
    },
    TEST_MS,
  );

  it(
    "delivers an event committed right before the process was killed",
    async () => {
      database = await processDatabase(kind);
      // The receiver starts only after the kill: whatever arrives was sent by the second process,
      // from the row the first one committed (the first one's attempts find nothing listening).
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/hooks`;
      const first = await start(database.env);
      // Everything through the API: on PGlite only the server may open its folder, and the 201 is
      // the commit a client relies on.
      const { token, wallet } = await signIn(first.baseUrl);
      const added = await request(first.baseUrl, "POST", `/api-keys/${wallet}/webhooks`, {
        token,
        body: { url, events: ["key.created"] },
      });
      expect(added.status).toBe(201);
      const created = await createKeyOver(first.baseUrl, token, { name: "committed" });
      await first.stop("SIGKILL");

      const hook = await startWebhookReceiver([(added.body as { secret: string }).secret], undefined, port);
      receivers.push(hook);
      const second = await start(database.env);
      await pollFor(() => hook.received[0], AFTER_LEASE_MS);
      // Once: the first process never reached a receiver, so nothing is sent twice.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await second.stop()).toBe(0);
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0]?.verifiedBy).toHaveLength(1);
      const event = JSON.parse(hook.received[0]?.body ?? "{}") as {
        type: string;
        data: { key: { id: string } };
      };
      expect(event.type).toBe("key.created");
      expect(event.data.key.id).toBe(created.apiKey.id);
    },
    TEST_MS,
  );
});

describe.runIf(TEST_DATABASE_URL)("two instances on one PostgreSQL database", () => {
  const servers: ServerProcess[] = [];
  let hook: WebhookReceiver | undefined;
  let database: ProcessDatabase | undefined;
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    await hook?.close();
    await database?.remove();
  });

  it(
    "deliver each of 50 events exactly once when nothing fails",
    async () => {
      database = await processDatabase("postgres");
      hook = await startWebhookReceiver([]);
      const receiver = hook;
      const shared = await database.open();
      try {
        receiver.setSecrets([await addEndpoint(shared, receiver.url)]);
        const env = { ...database.env, WEBHOOKS_ALLOW_PRIVATE: "true", NONCE_RATE_LIMIT: "off" };
        servers.push(...(await Promise.all([spawnServer(env, START_MS), spawnServer(env, START_MS)])));
        for (let i = 0; i < 50; i++) await enqueue(shared, `key_${i}`);
        await pollFor(async () => {
          const rows = await shared.db.select().from(webhookDeliveries);
          return rows.length === 50 && rows.every((row) => row.status === "succeeded") ? true : undefined;
        }, START_MS);
        const rows = await shared.db.select().from(webhookDeliveries);
        expect(rows.every((row) => row.attempts === 1)).toBe(true);
        expect(receiver.received).toHaveLength(50);
        expect(new Set(receiver.received.map((request) => request.headers["webhook-id"])).size).toBe(50);
        expect(receiver.received.every((request) => request.verifiedBy.length === 1)).toBe(true);
        for (const server of servers.splice(0)) expect(await server.stop()).toBe(0);
      } finally {
        await shared.close();
      }
    },
    TEST_MS,
  );
});
