import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

const CAP = 3;
const WEEK = 604_800;

interface KeyBody {
  id: string;
  name: string;
  status: string;
  revokedAt: string | null;
}

describeDatabases("rolls at the active-key cap", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: String(CAP) });
  });
  afterAll(() => server.close());

  /** A fresh wallet holding `count` active keys. */
  async function walletWith(count: number) {
    const session = await signIn(server.baseUrl);
    const call = (method: string, path: string, body?: unknown) =>
      request(server.baseUrl, method, path, { token: session.token, body });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await call("POST", "/api-keys", { name: `k${i}` });
      expect(created.status).toBe(201);
      ids.push((created.body as { apiKey: KeyBody }).apiKey.id);
    }
    const active = async () => {
      const { body } = await call("GET", `/api-keys/${session.wallet}?status=active`);
      return (body as { keys: KeyBody[] }).keys;
    };
    const roll = (id: string, gracePeriodSeconds?: number) =>
      call("POST", `/api-keys/${id}/roll`, gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds });
    return { session, call, ids, active, roll };
  }

  it("refuses a roll with a grace period at the cap with 409 CONFLICT and changes nothing", async () => {
    const { ids, active, roll, call, session } = await walletWith(CAP);
    const [first] = ids;
    if (first === undefined) throw new Error("no key");
    const before = await call("GET", `/api-keys/${session.wallet}`);
    const refused = await roll(first, 3600);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: "CONFLICT",
      message: expect.stringMatching(/maximum of 3 active keys.*grace period/),
    });
    expect((await call("GET", `/api-keys/${session.wallet}`)).body).toEqual(before.body);
    expect(await active()).toHaveLength(CAP);
  });

  it("always allows a roll without grace, even at the cap: the old key is revoked at once", async () => {
    const { ids, active, roll } = await walletWith(CAP);
    const [first] = ids;
    if (first === undefined) throw new Error("no key");
    const rolled = await roll(first);
    expect(rolled.status).toBe(201);
    expect((rolled.body as { previous: KeyBody }).previous.status).toBe("revoked");
    const explicitZero = await roll((rolled.body as { apiKey: KeyBody }).apiKey.id, 0);
    expect(explicitZero.status).toBe(201);
    expect(await active()).toHaveLength(CAP);
  });

  it("counts keys in a grace period: ten 7-day rolls never take a wallet past the cap", async () => {
    const { ids, active, roll } = await walletWith(1);
    let current = ids[0] ?? "";
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const rolled = await roll(current, WEEK);
      statuses.push(rolled.status);
      if (rolled.status === 201) current = (rolled.body as { apiKey: KeyBody }).apiKey.id;
    }
    // 1 key, then 2, then 3 = the cap: two rolls fit, the other eight are refused.
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await active()).toHaveLength(CAP);
  });

  it("frees room when a key in its grace period is revoked", async () => {
    const { ids, roll, call } = await walletWith(CAP - 1);
    const [first, second] = ids;
    if (first === undefined || second === undefined) throw new Error("no key");
    expect((await roll(first, 3600)).status).toBe(201);
    expect((await roll(second, 3600)).status).toBe(409);
    expect((await call("DELETE", `/api-keys/${first}`)).status).toBe(200);
    expect((await roll(second, 3600)).status).toBe(201);
  });

  it("is exact under concurrency: two rolls with grace at cap - 1, one 201 and one 409", async () => {
    for (let round = 0; round < 3; round++) {
      const { ids, active, roll } = await walletWith(CAP - 1);
      const results = await Promise.all(ids.map((id) => roll(id, 3600)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(await active()).toHaveLength(CAP);
    }
  });

  it("holds the cap between concurrent creates and rolls with grace", async () => {
    const { ids, active, roll, call } = await walletWith(CAP - 1);
    const results = await Promise.all([
      ...ids.map((id) => roll(id, 3600)),
      call("POST", "/api-keys", { name: "c1" }),
      call("POST", "/api-keys", { name: "c2" }),
    ]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect(await active()).toHaveLength(CAP);
  });

  it("answers CONFLICT over tRPC too", async () => {
    const { session, ids } = await walletWith(CAP);
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${server.baseUrl}/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${session.token}` },
        }),
      ],
    });
    const id = ids[0] ?? "";
    const error = await client.keys.roll.mutate({ id, gracePeriodSeconds: 60 }).then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ code: "CONFLICT", httpStatus: 409 });
    expect((error as TRPCClientError<AppRouter>).message).toMatch(/maximum of 3 active keys/);
    const rolled = await client.keys.roll.mutate({ id });
    expect(rolled.previous.status).toBe("revoked");
  });
});
