import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from "@trpc/client";
import { createHTTPServer } from "@trpc/server/adapters/standalone";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createContext } from "../src/context.js";
import type { AppRouter } from "../src/index.js";
import { isWellFormedKey } from "../src/keys/secret.js";
import { publicProcedure, router } from "../src/trpc.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// No procedure of the app takes an array yet, and none fails on purpose: this router, built from the
// app's own procedures (and so its error formatter), shows what /trpc answers when one does.
const probeRouter = router({
  tags: publicProcedure
    .input(z.object({ tags: z.array(z.string().min(1)) }))
    .query(({ input }) => input.tags),
  broken: publicProcedure.query((): string => {
    throw new Error('relation "api_keys_secret" does not exist');
  }),
});

async function rejection(call: Promise<unknown>): Promise<TRPCClientError<typeof probeRouter>> {
  const error = await call.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  if (!(error instanceof TRPCClientError)) throw new Error("expected a TRPCClientError");
  return error;
}

function clientFor(baseUrl: string, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

describeDatabases("API keys over tRPC (@trpc/client, httpBatchLink, superjson)", (target) => {
  let server: TestServer;
  let session: { token: string; wallet: string };
  let client: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
    client = clientFor(server.baseUrl, session.token);
  });
  afterAll(() => server.close());

  it("creates, lists, rolls and revokes, with Dates as Dates", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await client.keys.create.mutate({
      name: "trpc",
      expiresAt,
      rateLimit: { limit: 10, windowSeconds: 1 },
    });
    expect(isWellFormedKey(created.key, "kp")).toBe(true);
    expect(created.apiKey.createdAt).toBeInstanceOf(Date);
    expect(created.apiKey.expiresAt?.getTime()).toBe(expiresAt.getTime());

    const listed = await client.keys.list.query({ wallet: session.wallet });
    expect(listed.keys.map((k) => k.id)).toContain(created.apiKey.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const rolled = await client.keys.roll.mutate({ id: created.apiKey.id, gracePeriodSeconds: 60 });
    expect(rolled.previous.status).toBe("active");
    expect(rolled.previous.revokedAt).toBeInstanceOf(Date);
    expect(rolled.apiKey).toMatchObject({ name: "trpc", rateLimit: { limit: 10, windowSeconds: 1 } });

    const revoked = await client.keys.revoke.mutate({ id: rolled.apiKey.id });
    expect(revoked.apiKey.status).toBe("revoked");
    const again = await client.keys.revoke.mutate({ id: rolled.apiKey.id });
    expect(again.apiKey.revokedAt?.getTime()).toBe(revoked.apiKey.revokedAt?.getTime());
  });

  it("batches several calls in one request", async () => {
    const [a, b] = await Promise.all([
      client.keys.create.mutate({ name: "a" }),
      client.keys.create.mutate({ name: "b" }),
    ]);
    const page = await client.keys.list.query({ wallet: session.wallet, status: "active", limit: 100 });
    expect(page.keys.map((k) => k.id)).toEqual(expect.arrayContaining([a.apiKey.id, b.apiKey.id]));
  });

  it("signs in and out through tRPC too", async () => {
    const anonymous = clientFor(server.baseUrl);
    const { nonce } = await anonymous.auth.nonce.mutate();
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    const other = await signIn(server.baseUrl);
    const otherClient = clientFor(server.baseUrl, other.token);
    expect(await otherClient.auth.logout.mutate()).toEqual({ ok: true });
    await expect(otherClient.keys.list.query({ wallet: other.wallet })).rejects.toMatchObject({
      data: { code: "UNAUTHORIZED", httpStatus: 401 },
    });
  });

  it("reports errors with tRPC codes and no stack: 401, 403, 404, 400", async () => {
    const expectCode = async (promise: Promise<unknown>, code: string) => {
      const error = await promise.then(
        () => null,
        (cause: unknown) => cause,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      if (!(error instanceof TRPCClientError)) return;
      expect(error.data).toMatchObject({ code });
      expect(error.data.stack).toBeUndefined();
    };
    await expectCode(clientFor(server.baseUrl).keys.list.query({ wallet: session.wallet }), "UNAUTHORIZED");
    const intruder = clientFor(server.baseUrl, (await signIn(server.baseUrl)).token);
    await expectCode(intruder.keys.list.query({ wallet: session.wallet }), "FORBIDDEN");
    const { apiKey } = await client.keys.create.mutate({ name: "private" });
    await expectCode(intruder.keys.revoke.mutate({ id: apiKey.id }), "NOT_FOUND");
    await expectCode(intruder.keys.roll.mutate({ id: apiKey.id }), "NOT_FOUND");
    await expectCode(client.keys.create.mutate({ name: "" }), "BAD_REQUEST");
    await expectCode(
      client.keys.create.mutate({ name: "x", expiresAt: new Date(Date.now() - 1000) }),
      "BAD_REQUEST",
    );
  });

  describe("error shapes of any procedure", () => {
    let probe: Server;
    let probeClient: ReturnType<typeof createTRPCClient<typeof probeRouter>>;
    beforeAll(async () => {
      const services = server.app.services;
      probe = createHTTPServer({
        router: probeRouter,
        createContext: ({ req, res }) => createContext(services, req, res),
      });
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const address: AddressInfo | string | null = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probeClient = createTRPCClient<typeof probeRouter>({
        links: [httpLink({ url: `http://127.0.0.1:${port}`, transformer: superjson })],
      });
    });
    afterAll(() => new Promise<void>((resolve) => probe.close(() => resolve())));

    it("reports array indexes in issue paths as numbers, as REST does", async () => {
      const error = await rejection(probeClient.tags.query({ tags: ["ok", ""] }));
      expect(error.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400 });
      expect(error.data?.issues).toEqual([{ path: ["tags", 1], message: expect.any(String) }]);
    });

    it("answers an unexpected failure with 500 'Internal server error', never the thrown message", async () => {
      const error = await rejection(probeClient.broken.query());
      expect(error.data).toMatchObject({ code: "INTERNAL_SERVER_ERROR", httpStatus: 500 });
      expect(error.message).toBe("Internal server error");
      expect(JSON.stringify(error.shape)).not.toContain("api_keys_secret");
    });
  });
});
