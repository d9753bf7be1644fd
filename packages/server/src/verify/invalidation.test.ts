import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "../../test/support/databases.js";
import type { Database } from "../db/database.js";
import { createKeyCache } from "./cache.js";
import {
  connectCacheToBus,
  createInvalidationBus,
  INVALIDATION_CHANNEL,
  type Invalidation,
  type InvalidationBus,
  NOTIFY_SQL,
} from "./invalidation.js";

function heard(bus: InvalidationBus): Invalidation[] {
  const events: Invalidation[] = [];
  bus.subscribe((e) => events.push(e));
  return events;
}

const keyEvent = (keyId: string): Invalidation => ({ kind: "key", keyId });

describe("invalidation bus on PGlite", () => {
  let database: Database;
  let pg: PGlite;
  beforeAll(async () => {
    database = await openTestPglite();
    if (database.driver.kind !== "pglite") throw new Error("openTestPglite opened no PGlite");
    pg = database.driver.client;
  });
  afterAll(() => database.close());

  it("delivers a published key id to every bus on the database", async () => {
    const a = await createInvalidationBus({ kind: "pglite", client: pg });
    const b = await createInvalidationBus({ kind: "pglite", client: pg });
    const onA = heard(a);
    const onB = heard(b);
    await a.publish("key_pglite1");
    await expect.poll(() => onA.length > 0 && onB.length > 0).toBe(true);
    expect(onB).toEqual([keyEvent("key_pglite1")]);
    await Promise.all([a.close(), b.close()]);
  });

  it("delivers a notification sent inside a transaction only when it commits", async () => {
    const bus = await createInvalidationBus({ kind: "pglite", client: pg });
    const events = heard(bus);
    await pg
      .transaction(async (tx) => {
        await tx.query(NOTIFY_SQL, [INVALIDATION_CHANNEL, "key_rolledback"]);
        throw new Error("abort");
      })
      .catch(() => undefined);
    await pg.transaction(async (tx) => {
      await tx.query(NOTIFY_SQL, [INVALIDATION_CHANNEL, "key_committed"]);
    });
    await expect.poll(() => events.length).toBeGreaterThan(0);
    expect(events).toEqual([keyEvent("key_committed")]);
    await bus.close();
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(databaseUrl)("invalidation bus on PostgreSQL", () => {
  const name = `keyport_inval_${randomBytes(6).toString("hex")}`;
  let admin: postgres.Sql;
  const clients: postgres.Sql[] = [];
  function instance(): postgres.Sql {
    const url = new URL(databaseUrl ?? "");
    url.pathname = `/${name}`;
    const sql = postgres(url.toString(), { max: 2, onnotice: () => undefined });
    clients.push(sql);
    return sql;
  }

  beforeAll(async () => {
    admin = postgres(databaseUrl ?? "", { max: 1, onnotice: () => undefined });
    await admin.unsafe(`CREATE DATABASE ${name}`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it("delivers a key id published by one instance to another", async () => {
    const a = await createInvalidationBus({ kind: "postgres", client: instance() });
    const b = await createInvalidationBus({ kind: "postgres", client: instance() });
    const onB = heard(b);
    await a.publish("key_pg1");
    await expect.poll(() => onB.some((e) => e.kind === "key")).toBe(true);
    expect(onB.filter((e) => e.kind === "key")).toEqual([keyEvent("key_pg1")]);
    await Promise.all([a.close(), b.close()]);
  });

  it("evicts the key from the other instance's cache when the revoking transaction commits", async () => {
    const writer = instance();
    const bus = await createInvalidationBus({ kind: "postgres", client: instance() });
    const cache = createKeyCache();
    connectCacheToBus(cache, bus);
    const record = {
      id: "key_cached",
      wallet: "0x",
      name: "n",
      expiresAt: null,
      revokedAt: null,
      rateLimits: [],
      walletRateLimits: [],
      autoLimits: [],
      permissions: [],
      meta: null,
      creditsId: null,
      allowedIps: null,
      suspended: false,
    };
    cache.set("hash_cached", record, cache.generation());
    await writer.begin(async (tx) => {
      await tx.unsafe(NOTIFY_SQL, [INVALIDATION_CHANNEL, "key_cached"]);
    });
    await expect.poll(() => cache.get("hash_cached")).toBeUndefined();
    await bus.close();
  });

  it("reports that everything is suspect after the listening connection drops, then keeps listening", async () => {
    const listener = instance();
    const bus = await createInvalidationBus({ kind: "postgres", client: listener });
    const events = heard(bus);
    const resyncs = () => events.filter((e) => e.kind === "all").length;
    const before = resyncs();
    const terminated = await admin.unsafe(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = $1 AND query ILIKE 'listen%' AND pid <> pg_backend_pid()`,
      [name],
    );
    expect(terminated).toHaveLength(1);
    await expect.poll(resyncs).toBeGreaterThan(before);
    const other = await createInvalidationBus({ kind: "postgres", client: instance() });
    await other.publish("key_after_reconnect");
    await expect.poll(() => events.some((e) => e.kind === "key")).toBe(true);
    expect(events.filter((e) => e.kind === "key")).toEqual([keyEvent("key_after_reconnect")]);
    await Promise.all([bus.close(), other.close()]);
  });
});
