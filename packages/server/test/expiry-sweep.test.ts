import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { fetchNonce, signIn } from "@keyport/test-support/siwe";
import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sweepExpired } from "../src/auth/expiry-sweep.js";
import { keyEvents, sessions, siweNonces } from "../src/db/schema/index.js";
import { hashKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

const SESSION_TTL_SECONDS = 3600;

describeDatabases("the expiry sweep, over HTTP", (target) => {
  const clock = useMovableDate();
  let server: TestServer;

  beforeAll(async () => {
    // A short interval instead of a minute; the clock is moved by hand, never waited for.
    server = await startTestServer(target, {
      SWEEP_INTERVAL_MS: "20",
      SESSION_TTL_SECONDS: String(SESSION_TTL_SECONDS),
    });
  });
  afterAll(() => server.close());

  const nonces = async () =>
    (await target.database.db.select().from(siweNonces).orderBy(asc(siweNonces.nonce))).map(
      (row) => row.nonce,
    );
  const sessionHashes = async () =>
    (await target.database.db.select().from(sessions).orderBy(asc(sessions.tokenHash))).map(
      (row) => row.tokenHash,
    );

  it("deletes nonces and sessions once they expire, used or not, and keeps everything live", async () => {
    const unused = await fetchNonce(server.baseUrl);
    const old = await signIn(server.baseUrl);
    const loggedOut = await signIn(server.baseUrl);
    expect((await request(server.baseUrl, "POST", "/auth/logout", { token: loggedOut.token })).status).toBe(
      200,
    );
    expect(await nonces()).toContain(unused);
    expect(await sessionHashes()).toEqual(
      expect.arrayContaining([hashKey(old.token), hashKey(loggedOut.token)]),
    );

    // Past the session TTL: the nonces (10 minutes) and both sessions have expired.
    clock.advance(SESSION_TTL_SECONDS * 1000);
    const live = await signIn(server.baseUrl);
    const fresh = await fetchNonce(server.baseUrl);
    await expect.poll(sessionHashes).toEqual([hashKey(live.token)]);
    // Left: the fresh nonce, and the one the live sign-in used (it goes when it expires).
    await expect.poll(async () => (await nonces()).length).toBe(2);
    expect(await nonces()).toContain(fresh);
    expect(await nonces()).not.toContain(unused);

    // What is live still works.
    expect((await request(server.baseUrl, "GET", "/auth/session", { token: live.token })).status).toBe(200);
    expect((await request(server.baseUrl, "GET", "/auth/session", { token: old.token })).status).toBe(401);
  });
});

describeDatabases("sweepExpired", (target) => {
  const T0 = new Date(Date.UTC(2026, 0, 1, 12));
  const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

  /** `expired` nonces and sessions that ended a minute before T0, and `live` ones ending 10 minutes after. */
  async function seed(prefix: string, expired: number, live: number) {
    const { db } = target.database;
    const rows = (n: number, expiresAt: Date, kind: string) =>
      Array.from({ length: n }, (_, i) => ({
        id: `${prefix}${kind}${String(i).padStart(4, "0")}`,
        expiresAt,
      }));
    const all = [...rows(expired, at(-1), "x"), ...rows(live, at(10), "l")];
    if (all.length === 0) return;
    await db
      .insert(siweNonces)
      .values(all.map((row) => ({ nonce: row.id, createdAt: at(-20), expiresAt: row.expiresAt })));
    await db.insert(sessions).values(
      all.map((row) => ({
        tokenHash: row.id,
        id: `ses_${row.id}`,
        wallet: "0x0",
        createdAt: at(-20),
        expiresAt: row.expiresAt,
      })),
    );
  }

  async function remaining() {
    const { db } = target.database;
    const [n] = await db.select({ n: count() }).from(siweNonces);
    const [s] = await db.select({ n: count() }).from(sessions);
    return { nonces: n?.n, sessions: s?.n };
  }

  it("deletes at most batchSize rows a statement and maxBatches statements a sweep, leaving the rest for the next", async () => {
    const { db } = target.database;
    await db.delete(siweNonces);
    await db.delete(sessions);
    await seed("a", 25, 5);
    const limits = { batchSize: 10, maxBatches: 2 };
    expect(await sweepExpired(db, T0, limits)).toEqual({
      nonces: 20,
      sessions: 20,
      events: 0,
      operatorEvents: 0,
    });
    expect(await remaining()).toEqual({ nonces: 10, sessions: 10 });
    expect(await sweepExpired(db, T0, limits)).toEqual({
      nonces: 5,
      sessions: 5,
      events: 0,
      operatorEvents: 0,
    });
    expect(await sweepExpired(db, T0, limits)).toEqual({
      nonces: 0,
      sessions: 0,
      events: 0,
      operatorEvents: 0,
    });
    expect(await remaining()).toEqual({ nonces: 5, sessions: 5 });
    // The live rows are the ones left.
    const left = await db
      .select()
      .from(siweNonces)
      .where(eq(siweNonces.expiresAt, at(10)));
    expect(left).toHaveLength(5);
  });

  it("treats a row expiring exactly now as expired, and one a millisecond later as live", async () => {
    const { db } = target.database;
    await db.delete(siweNonces);
    await db.delete(sessions);
    await db.insert(siweNonces).values([
      { nonce: "edge-now", createdAt: at(-10), expiresAt: T0 },
      { nonce: "edge-later", createdAt: at(-10), expiresAt: new Date(T0.getTime() + 1) },
    ]);
    expect(await sweepExpired(db, T0)).toEqual({ nonces: 1, sessions: 0, events: 0, operatorEvents: 0 });
    expect((await db.select().from(siweNonces)).map((row) => row.nonce)).toEqual(["edge-later"]);
  });

  it("clears a large backlog in one sweep by default (10 statements of 1,000)", async () => {
    const { db } = target.database;
    await db.delete(siweNonces);
    await db.delete(sessions);
    for (let chunk = 0; chunk < 5; chunk++) {
      await db.insert(siweNonces).values(
        Array.from({ length: 500 }, (_, i) => ({
          nonce: `bulk${chunk}-${i}`,
          createdAt: at(-20),
          expiresAt: at(-1),
        })),
      );
    }
    expect(await sweepExpired(db, T0)).toEqual({ nonces: 2_500, sessions: 0, events: 0, operatorEvents: 0 });
    expect(await remaining()).toEqual({ nonces: 0, sessions: 0 });
  });

  it("deletes audit events older than the retention, and none when retention is off", async () => {
    const { db } = target.database;
    await db.delete(keyEvents);
    const event = (wallet: string, offsetMs: number) => ({
      wallet,
      keyId: null,
      action: "session.created",
      at: new Date(T0.getTime() + offsetMs),
    });
    await db.insert(keyEvents).values([event("0xold", -2), event("0xedge", 0), event("0xnew", 1)]);
    expect((await sweepExpired(db, T0)).events).toBe(0);
    expect((await sweepExpired(db, T0, { eventsBefore: null })).events).toBe(0);
    expect(await sweepExpired(db, T0, { eventsBefore: T0 })).toMatchObject({ events: 2 });
    expect((await db.select().from(keyEvents)).map((row) => row.wallet)).toEqual(["0xnew"]);
  });
});
