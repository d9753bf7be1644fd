import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, walletActiveKeys } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { propertyRuns } from "./support/tier.js";

// `wallet_active_keys.at_most` lets a create skip counting the wallet's keys (keys/insert-under-cap.ts).
// It must never fall below the wallet's active keys, or the cap could be overshot; when it is stale
// (keys revoked or expired since), a create at the bound counts exactly and resets it.

const CAP = 3;
const HOUR = 3_600_000;
// Expiries and grace periods end half an hour off the hour and the clock moves in whole hours, so no
// key changes status between the test reading the database and the server judging a request.
const HALF_HOUR_S = 1_800;

type Op =
  | { kind: "create"; expiresInHours: number | null }
  | { kind: "revoke"; pick: number }
  | { kind: "roll"; pick: number; graceHours: number }
  | { kind: "reactivate"; pick: number }
  | { kind: "advance"; hours: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      expiresInHours: fc.option(fc.integer({ min: 0, max: 2 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("revoke" as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("roll" as const),
      pick: fc.nat(),
      graceHours: fc.integer({ min: 0, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reactivate" as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("advance" as const), hours: fc.integer({ min: 1, max: 2 }) }),
  },
);

describeDatabases("the wallet's active-key bound", (target) => {
  const clock = useMovableDate();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: String(CAP) });
  });
  afterAll(() => server.close());

  /** The wallet's keys active now, counted from the stored rows, and its bound. */
  async function stored(wallet: string) {
    const { db } = target.database;
    const now = new Date();
    const keys = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.wallet, wallet),
          or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now)),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        ),
      );
    const [bound] = await db.select().from(walletActiveKeys).where(eq(walletActiveKeys.wallet, wallet));
    return { active: keys.length, atMost: bound?.atMost ?? 0 };
  }

  it("admits a create exactly when fewer than the cap are active, over any run of creates, revocations, rolls, expiries and re-activations, and never lets the bound fall below the count", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 6, maxLength: 24 }), async (ops) => {
        const session = await signIn(server.baseUrl);
        const call = (method: string, path: string, body?: unknown) =>
          request(server.baseUrl, method, path, { token: session.token, body });
        const ids: string[] = [];
        const pick = (n: number) => ids[n % Math.max(ids.length, 1)];
        for (const step of ops) {
          if (step.kind === "create") {
            const { active } = await stored(session.wallet);
            const expiresAt =
              step.expiresInHours === null
                ? undefined
                : new Date(Date.now() + step.expiresInHours * HOUR + HALF_HOUR_S * 1000).toISOString();
            const created = await call("POST", "/api-keys", {
              name: "k",
              ...(expiresAt ? { expiresAt } : {}),
            });
            expect(created.status).toBe(active < CAP ? 201 : 409);
            if (created.status === 201) ids.push((created.body as { apiKey: { id: string } }).apiKey.id);
          } else if (step.kind === "revoke") {
            const id = pick(step.pick);
            if (id !== undefined) expect((await call("DELETE", `/api-keys/${id}`)).status).toBe(200);
          } else if (step.kind === "roll") {
            const id = pick(step.pick);
            if (id === undefined) continue;
            const grace = step.graceHours === 0 ? 0 : step.graceHours * 3_600 + HALF_HOUR_S;
            const rolled = await call("POST", `/api-keys/${id}/roll`, { gracePeriodSeconds: grace });
            expect([200, 201, 409]).toContain(rolled.status);
            if (rolled.status < 300) ids.push((rolled.body as { apiKey: { id: string } }).apiKey.id);
          } else if (step.kind === "reactivate") {
            const id = pick(step.pick);
            if (id === undefined) continue;
            const { active } = await stored(session.wallet);
            const updated = await call("PATCH", `/api-keys/${id}`, { expiresAt: null });
            expect([200, 409]).toContain(updated.status);
            if (updated.status === 409 && active < CAP) {
              // Only a revoked key may refuse while there is room.
              expect((updated.body as { message: string }).message).toMatch(/revoked/i);
            }
          } else {
            clock.advance(step.hours * HOUR);
          }
          const { active, atMost } = await stored(session.wallet);
          expect(active).toBeLessThanOrEqual(CAP);
          expect(atMost).toBeGreaterThanOrEqual(active);
        }
      }),
      { numRuns: propertyRuns({ fast: 4, slow: 12 }) },
    );
  });

  it("counts again once revoked keys have left the bound at the cap, and sets it to the count", async () => {
    const session = await signIn(server.baseUrl);
    const call = (method: string, path: string, body?: unknown) =>
      request(server.baseUrl, method, path, { token: session.token, body });
    const ids: string[] = [];
    for (let i = 0; i < CAP; i++) {
      const created = await call("POST", "/api-keys", { name: `k${i}` });
      ids.push((created.body as { apiKey: { id: string } }).apiKey.id);
    }
    expect(await stored(session.wallet)).toEqual({ active: CAP, atMost: CAP });
    for (const id of ids.slice(0, 2)) await call("DELETE", `/api-keys/${id}`);
    expect(await stored(session.wallet)).toEqual({ active: 1, atMost: CAP });
    expect((await call("POST", "/api-keys", { name: "after" })).status).toBe(201);
    expect(await stored(session.wallet)).toEqual({ active: 2, atMost: 2 });
  });
});
