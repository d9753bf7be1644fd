import { connect, createServer, type Socket } from "node:net";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { createDatabase, type Database } from "../../src/db/database.js";
import { parseEnv } from "../../src/env.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "../support/databases.js";
import { TEST_WEBHOOKS_KEY } from "../support/webhooks-key.js";

// Every answer from PostgreSQL is held this long, so statements the client sends together reach the
// server before any answer comes back, and each time the client waits for an answer is one turn.
const ANSWER_DELAY_MS = 150;

interface Proxy {
  url: string;
  /** Times the client sent data after an answer had arrived: its round trips. */
  turns(): number;
  /** Destroys every open connection. */
  cut(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of PostgreSQL that delays answers and counts round trips. */
async function startProxy(target: URL): Promise<Proxy> {
  let turns = 0;
  let answered = true;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk) => {
      if (answered) turns++;
      answered = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      setTimeout(() => {
        answered = true;
        if (!client.destroyed) client.write(chunk);
      }, ANSWER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(address.port);
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString(),
    turns: () => turns,
    cut,
    close: () => {
      cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(TEST_DATABASE_URL)("key creation on PostgreSQL, through a delaying proxy", () => {
  let drop: () => Promise<void>;
  let proxy: Proxy;
  let database: Database;
  let app: App;
  let baseUrl: string;
  let session: { token: string; wallet: string };

  beforeAll(async () => {
    const created = await createPostgresTestDatabase(TEST_DATABASE_URL ?? "");
    drop = created.drop;
    proxy = await startProxy(new URL(created.url));
    database = await createDatabase(proxy.url, "");
    app = await createApp(
      parseEnv({
        DATABASE_URL: proxy.url,
        WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
        LOG_LEVEL: "silent",
        NONCE_RATE_LIMIT: "off",
      }),
      // The outbox's poll (every second by default) would add its own round trips to a create's count.
      { database, webhookDelivery: { pollIntervalMs: 3_600_000 } },
    );
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    session = await signIn(baseUrl);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await proxy?.close();
    await drop?.();
  });

  const create = (body: object) => request(baseUrl, "POST", "/api-keys", { token: session.token, body });

  /** The fewest round trips one create took, over a few (other work of the server may add to one). */
  async function fewestTurns(body: object): Promise<number> {
    expect((await create(body)).status).toBe(201); // warm: connection open, statements prepared
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = proxy.turns();
      expect((await create(body)).status).toBe(201);
      counts.push(proxy.turns() - before);
    }
    return Math.min(...counts);
  }

  it("waits on the database three times per create: the session lookup, the wallet's plan and suspension in one statement, then the one statement that checks the cap and inserts", async () => {
    expect(await fewestTurns({ name: "plain" })).toBe(3);
    expect(await fewestTurns({ name: "metered", credits: { remaining: 5 }, meta: { a: 1 } })).toBe(3);
  });

  /**
   * A create right after a cut may be sent on another pooled connection whose close the server has
   * not read yet (the proxy drops every connection at once): it answers 503 like the cut one. The
   * next create opens a fresh connection and must succeed.
   */
  async function createOnceReconnected(name: string): Promise<void> {
    const first = await create({ name });
    if (first.status === 201) return;
    expect(first.status).toBe(503);
    expect((await create({ name: `${name}, again` })).status).toBe(201);
  }

  it("answers 503 when the connection drops mid-create, and keeps creating afterwards (no connection lost to the pool)", async () => {
    // More failed creates than the pool has connections (10): a connection kept back after a failure
    // would leave later creates waiting for one.
    let failed = 0;
    for (let attempt = 0; attempt < 40 && failed < 12; attempt++) {
      // Reconnected after the last cut, so the turns below are the lookup's, the plan read's and the create's.
      await createOnceReconnected(`warm ${attempt}`);
      const before = proxy.turns();
      const pending = create({ name: `cut ${attempt}` });
      // The session lookup and the plan read answered and the create's flight is out, its answers held by the proxy.
      await expect.poll(() => proxy.turns() - before).toBeGreaterThanOrEqual(3);
      proxy.cut();
      const { status } = await pending;
      expect([201, 503]).toContain(status);
      if (status === 503) failed++;
    }
    expect(failed).toBe(12);
    await createOnceReconnected("after the last cut");
    for (let i = 0; i < 12; i++) expect((await create({ name: `after ${i}` })).status).toBe(201);
  });
});
