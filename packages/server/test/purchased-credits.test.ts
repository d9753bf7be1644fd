import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { topUp } from "./support/top-up.js";

// Purchased credits beside the allowance (docs/verifying-keys.md#two-pools), through the REST and
// tRPC surfaces. Top-ups go through the app's own balance writer, as a paid top-up does.

type Credits = { remaining: number; purchased: number; refill: unknown; refilledAt: string | null } | null;
type KeyBody = { id: string; credits: Credits };

const DAY_MS = 86_400_000;

describeDatabases("purchased credits", (target) => {
  const clock = useMovableDate();
  let server: TestServer;
  let session: { token: string; wallet: string };

  beforeAll(async () => {
    server = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "1000" });
    session = await signIn(server.baseUrl);
  });
  afterAll(() => server?.close());

  const create = (credits: Record<string, unknown>) =>
    createKeyOver(server.baseUrl, session.token, { name: "metered", credits });
  const patch = (id: string, body: Record<string, unknown>) =>
    request(server.baseUrl, "PATCH", `/api-keys/${id}`, { token: session.token, body });
  const listed = async (id: string) => {
    const list = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}`, {
      token: session.token,
    });
    return (list.body as { keys: KeyBody[] }).keys.find((k) => k.id === id)?.credits;
  };

  it("shows purchased credits in remaining and beside it, and spends the allowance first", async () => {
    const { key, apiKey } = await create({ remaining: 2 });
    expect((await topUp(server, apiKey.id, 5))?.purchased).toBe(5);
    expect(await listed(apiKey.id)).toMatchObject({ remaining: 7, purchased: 5 });
    // 2 from the allowance, 1 from the purchased credits.
    expect(await verifyOver(server.baseUrl, key, { cost: 3 })).toMatchObject({
      code: "VALID",
      credits: { remaining: 4, purchased: 4, refillAt: null },
    });
    expect(await verifyOver(server.baseUrl, key, { cost: 5 })).toMatchObject({
      code: "USAGE_EXCEEDED",
      credits: { remaining: 4, purchased: 4 },
    });
    expect(await verifyOver(server.baseUrl, key, { cost: 4 })).toMatchObject({
      code: "VALID",
      credits: { remaining: 0, purchased: 0 },
    });
    expect((await verifyOver(server.baseUrl, key)).code).toBe("USAGE_EXCEEDED");
  });

  it("answers purchased credits over the tRPC verify too", async () => {
    const { key, apiKey } = await create({ remaining: 0 });
    await topUp(server, apiKey.id, 3);
    const answer = await trpcClient(server.baseUrl).keys.verify.mutate({ key, cost: 2 });
    expect(answer).toMatchObject({ code: "VALID", credits: { remaining: 1, purchased: 1, refillAt: null } });
  });

  it("a refill sets only the allowance: purchased credits stay, and never expire", async () => {
    const { key, apiKey } = await create({ remaining: 1, refill: { interval: "daily", amount: 5 } });
    await topUp(server, apiKey.id, 3);
    expect(await verifyOver(server.baseUrl, key, { cost: 2 })).toMatchObject({
      credits: { remaining: 2, purchased: 2 },
    });
    const now = Date.now();
    clock.advance(Math.ceil(now / DAY_MS) * DAY_MS - now + 1_000);
    expect(await listed(apiKey.id)).toMatchObject({ remaining: 7, purchased: 2 });
    expect(await verifyOver(server.baseUrl, key, { cost: 6 })).toMatchObject({
      code: "VALID",
      credits: { remaining: 1, purchased: 1 },
    });
  });

  it("PATCH credits sets only the allowance and keeps the purchased credits", async () => {
    const { key, apiKey } = await create({ remaining: 5 });
    await topUp(server, apiKey.id, 10);
    expect(await verifyOver(server.baseUrl, key, { cost: 7 })).toMatchObject({
      credits: { remaining: 8, purchased: 8 },
    });
    const patched = await patch(apiKey.id, { credits: { remaining: 3, refill: null } });
    expect(patched).toMatchObject({
      status: 200,
      body: { apiKey: { credits: { remaining: 11, purchased: 8 } } },
    });
    expect(await verifyOver(server.baseUrl, key)).toMatchObject({ credits: { remaining: 10, purchased: 8 } });
  });

  it("PATCH credits: null is 409 while the balance holds purchased credits, over REST and tRPC", async () => {
    const { key, apiKey } = await create({ remaining: 4 });
    await topUp(server, apiKey.id, 2);
    const refused = await patch(apiKey.id, { credits: null });
    expect(refused).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    expect(JSON.stringify(refused.body)).toContain("purchased credits");
    const client = trpcClient(server.baseUrl, session.token);
    const error = await client.keys.update.mutate({ id: apiKey.id, credits: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error).toMatchObject({ data: { code: "CONFLICT", httpStatus: 409 } });
    // Nothing changed: the key is still metered with both pools.
    expect(await listed(apiKey.id)).toMatchObject({ remaining: 6, purchased: 2 });
    // Once the purchased credits are spent, the credits can be removed.
    expect(await verifyOver(server.baseUrl, key, { cost: 6 })).toMatchObject({ credits: { remaining: 0 } });
    expect(await patch(apiKey.id, { credits: null })).toMatchObject({
      status: 200,
      body: { apiKey: { credits: null } },
    });
    expect(await verifyOver(server.baseUrl, key, { cost: 1 })).toMatchObject({
      code: "VALID",
      credits: null,
    });
  });

  it("a roll shares both pools between the old and the new key", async () => {
    const { key: oldKey, apiKey } = await create({ remaining: 1 });
    await topUp(server, apiKey.id, 4);
    const rolled = await request(server.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, {
      token: session.token,
      body: { gracePeriodSeconds: 3_600 },
    });
    const {
      key: newKey,
      apiKey: next,
      previous,
    } = rolled.body as {
      key: string;
      apiKey: KeyBody;
      previous: KeyBody;
    };
    expect(next.credits).toMatchObject({ remaining: 5, purchased: 4 });
    expect(previous.credits).toEqual(next.credits);
    expect(await verifyOver(server.baseUrl, newKey, { cost: 2 })).toMatchObject({
      credits: { remaining: 3, purchased: 3 },
    });
    // A top-up of the shared balance (named by the first key's id) reaches both keys.
    await topUp(server, apiKey.id, 2);
    expect(await verifyOver(server.baseUrl, oldKey, { cost: 1 })).toMatchObject({
      credits: { remaining: 4, purchased: 4 },
    });
    expect(await listed(next.id)).toMatchObject({ remaining: 4, purchased: 4 });
  });

  it("a revoked key's purchased credits stay recorded", async () => {
    const { key, apiKey } = await create({ remaining: 1 });
    await topUp(server, apiKey.id, 9);
    const revoked = await request(server.baseUrl, "DELETE", `/api-keys/${apiKey.id}`, {
      token: session.token,
    });
    expect(revoked).toMatchObject({
      status: 200,
      body: { apiKey: { credits: { remaining: 10, purchased: 9 } } },
    });
    expect(await verifyOver(server.baseUrl, key)).toMatchObject({ code: "REVOKED", credits: null });
    expect(await listed(apiKey.id)).toMatchObject({ remaining: 10, purchased: 9 });
  });
});
