import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, newAccount, postVerify, signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { and, asc, eq } from "drizzle-orm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { payments, sessions, webhookMessages, webhooks } from "../src/db/schema/index.js";
import { encryptSecret, newWebhookSecret } from "../src/webhooks/secret.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, introspectOver, trpcClient, verifyOver } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";
import { topUpOver } from "./support/top-up.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

// The operator suspends a wallet (docs/operator.md#suspension): its keys answer WALLET_SUSPENDED and
// spend nothing, its sessions end, sign-in, top-ups and key writes are 403, and unsuspending restores
// every key as it was. Run with and without Redis (where limits and balances live then).

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const KEY = Buffer.from(TEST_WEBHOOKS_KEY, "base64");

/** A loopback port nothing listens on: payments are on, but no chain answers (nothing may reach it). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

interface WalletAnswer {
  wallet: { address: string; suspended: { at: string; reason: string } | null };
  sessions: number;
}

interface Event {
  action: string;
  reason?: string | null;
  actor?: unknown;
  changes: Record<string, unknown>;
}

const modes: [string, Record<string, string>][] = [["without Redis", {}]];
if (TEST_REDIS_URL) modes.push(["with Redis", sharedRedisEnv(TEST_REDIS_URL)]);

for (const [mode, redisEnv] of modes) {
  describeDatabases(`wallet suspension, ${mode}`, (target) => {
    const operator = newAccount();
    let server: TestServer;
    let operatorSession: string;

    beforeAll(async () => {
      server = await startTestServer(target, {
        OPERATOR_WALLETS: operator.address,
        PAYMENTS_NETWORK: "eip155:31337",
        PAYMENTS_RPC_URL: `http://127.0.0.1:${await closedPort()}`,
        PAYMENTS_ASSET: privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address,
        PAYMENTS_PAY_TO: privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address,
        PAYMENTS_SETTLER_PRIVATE_KEY: `0x${randomBytes(32).toString("hex")}`,
        ...redisEnv,
      });
      operatorSession = (await signIn(server.baseUrl, operator)).token;
    });
    afterAll(async () => {
      await server?.close();
      await removeRedisKeys(redisEnv);
    });

    const suspend = (wallet: string, body: unknown, token = operatorSession) =>
      request(server.baseUrl, "POST", `/operator/wallets/${wallet}/suspend`, { token, body });
    const unsuspend = (wallet: string, body: unknown, token = operatorSession) =>
      request(server.baseUrl, "POST", `/operator/wallets/${wallet}/unsuspend`, { token, body });
    const tokenWith = async (scopes: string[]) => {
      const created = await request(server.baseUrl, "POST", "/operator/tokens", {
        token: operatorSession,
        body: { name: `t ${scopes.join(" ")}`, scopes },
      });
      return created.body as { token: { id: string; name: string }; secret: string };
    };
    const operatorTrail = async (wallet: string) =>
      (
        (
          await request(server.baseUrl, "GET", `/operator/events?wallet=${wallet}`, {
            token: operatorSession,
          })
        ).body as { events: Event[] }
      ).events;

    it("needs wallets:write: a reader, a wallet that is no operator and no bearer are refused, suspending nothing", async () => {
      const owner = await signIn(server.baseUrl);
      const reader = await tokenWith(["wallets:read"]);
      const refused = await suspend(owner.wallet, { reason: "no" }, reader.secret);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        reason: "INSUFFICIENT_SCOPE",
        details: { scope: "wallets:write" },
      });
      const stranger = await signIn(server.baseUrl);
      expect((await suspend(owner.wallet, { reason: "no" }, stranger.token)).status).toBe(403);
      expect((await unsuspend(owner.wallet, {}, stranger.token)).status).toBe(403);
      expect((await suspend(owner.wallet, { reason: "no" }, "")).status).toBe(401);
      expect((await request(server.baseUrl, "GET", "/auth/session", { token: owner.token })).status).toBe(
        200,
      );
      expect(await operatorTrail(owner.wallet)).toEqual([]);

      const writer = await tokenWith(["wallets:write"]);
      const done = await suspend(owner.wallet, { reason: "chargeback" }, writer.secret);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const [event] = await operatorTrail(owner.wallet);
      expect(event).toMatchObject({
        action: "wallet.suspended",
        reason: "chargeback",
        actor: { type: "token", id: writer.token.id, name: writer.token.name },
      });
    });

    it("answers 409 for an operator wallet, 404 for a wallet never seen, 400 without a reason", async () => {
      const refused = await suspend(operator.address.toLowerCase(), { reason: "oops" });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: "CONFLICT" });
      expect((await request(server.baseUrl, "GET", "/auth/session", { token: operatorSession })).status).toBe(
        200,
      );
      const never = newAccount().address;
      const unknown = await suspend(never, { reason: "who" });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: "NOT_FOUND" });
      expect((await unsuspend(never, {})).status).toBe(404);
      const owner = await signIn(server.baseUrl);
      for (const body of [{}, { reason: "  " }, { reason: "a\nb" }]) {
        expect((await suspend(owner.wallet, body)).status).toBe(400);
      }
      expect((await request(server.baseUrl, "GET", "/auth/session", { token: owner.token })).status).toBe(
        200,
      );
    });

    it("is idempotent: suspending a suspended wallet (or lifting a free one) answers its state and records nothing", async () => {
      const owner = await signIn(server.baseUrl);
      const first = await suspend(owner.wallet, { reason: "first" });
      const again = await suspend(owner.wallet, { reason: "second" });
      expect(again.status).toBe(200);
      expect((again.body as WalletAnswer).wallet.suspended).toEqual(
        (first.body as WalletAnswer).wallet.suspended,
      );
      expect((again.body as WalletAnswer).wallet.suspended?.reason).toBe("first");
      expect(await operatorTrail(owner.wallet)).toHaveLength(1);
      expect((await unsuspend(owner.wallet, {})).status).toBe(200);
      const free = await unsuspend(owner.wallet, { reason: "again" });
      expect(free.status).toBe(200);
      expect((free.body as WalletAnswer).wallet.suspended).toBeNull();
      expect((await operatorTrail(owner.wallet)).map((e) => e.action)).toEqual([
        "wallet.unsuspended",
        "wallet.suspended",
      ]);
    });

    it("refuses every key with WALLET_SUSPENDED spending nothing, and unsuspending restores each as it was", async () => {
      const owner = await signIn(server.baseUrl);
      const limits = await request(server.baseUrl, "PUT", `/api-keys/${owner.wallet}/limits`, {
        token: owner.token,
        body: { rateLimits: [{ name: "default", limit: 3, windowSeconds: 3600, autoApply: true }] },
      });
      expect(limits.status, JSON.stringify(limits.body)).toBe(200);
      const metered = await createKeyOver(server.baseUrl, owner.token, {
        name: "metered",
        credits: { remaining: 5 },
        rateLimit: { limit: 2, windowSeconds: 3600 },
      });
      const plain = await createKeyOver(server.baseUrl, owner.token, { name: "plain" });
      const first = await verifyOver(server.baseUrl, metered.key);
      expect(first).toMatchObject({ code: "VALID", credits: { remaining: 4 } });

      const suspended = await suspend(owner.wallet, { reason: "abuse" });
      expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
      expect((suspended.body as WalletAnswer).wallet.suspended?.reason).toBe("abuse");
      for (let i = 0; i < 5; i++) {
        const answer = await verifyOver(server.baseUrl, metered.key);
        expect(answer).toMatchObject({
          valid: false,
          code: "WALLET_SUSPENDED",
          keyId: metered.apiKey.id,
          wallet: owner.wallet,
          credits: null,
        });
      }
      expect(await verifyOver(server.baseUrl, plain.key)).toMatchObject({
        valid: false,
        code: "WALLET_SUSPENDED",
      });
      expect(await introspectOver(server.baseUrl, metered.key)).toMatchObject({
        status: "active",
        suspended: true,
        topUpUrl: null,
        credits: { remaining: 4 },
      });

      const lifted = await unsuspend(owner.wallet, { reason: "resolved" });
      expect(lifted.status).toBe(200);
      expect((lifted.body as WalletAnswer).wallet.suspended).toBeNull();
      // Five refused verifications took nothing: the credits, the key's limit and the wallet's are as
      // one verification left them.
      const after = await verifyOver(server.baseUrl, metered.key);
      expect(after).toMatchObject({ code: "VALID", credits: { remaining: 3 } });
      const byName = Object.fromEntries(after.ratelimits.map((l) => [l.scope, l.remaining]));
      expect(byName).toEqual({ key: 0, wallet: 1 });
      expect(await verifyOver(server.baseUrl, plain.key)).toMatchObject({ code: "VALID" });
      expect(await introspectOver(server.baseUrl, plain.key)).toMatchObject({ suspended: false });
      const list = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, {
        token: (await signIn(server.baseUrl, owner.account)).token,
      });
      expect((list.body as { keys: { status: string }[] }).keys.map((k) => k.status)).toEqual([
        "active",
        "active",
      ]);

      await expect
        .poll(async () => {
          await server.app.services.verification.usage.flush();
          const usage = await request(server.baseUrl, "GET", `/operator/wallets/${owner.wallet}/usage`, {
            token: operatorSession,
          });
          return (usage.body as { totals: Record<string, number> }).totals;
        })
        .toMatchObject({ requests: 9, valid: 3, walletSuspended: 6 });
    });

    it("ends the wallet's sessions and refuses its sign-in with 403 WALLET_SUSPENDED until lifted", async () => {
      const owner = await signIn(server.baseUrl);
      const other = await signIn(server.baseUrl, owner.account);
      const answer = await suspend(owner.wallet, { reason: "fraud" });
      expect((answer.body as WalletAnswer).sessions).toBe(0);
      for (const token of [owner.token, other.token]) {
        const session = await request(server.baseUrl, "GET", "/auth/session", { token });
        expect(session.status).toBe(401);
      }
      const refused = await postVerify(
        server.baseUrl,
        owner.account,
        buildSiweMessage(owner.account, await fetchNonce(server.baseUrl)),
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: "FORBIDDEN",
        reason: "WALLET_SUSPENDED",
        message: expect.stringContaining("suspended by this deployment"),
      });
      // A bad signature is still 401 first: nobody learns of a suspension without signing as the wallet.
      const forged = await postVerify(
        server.baseUrl,
        newAccount(),
        buildSiweMessage(owner.account, await fetchNonce(server.baseUrl)),
      );
      expect(forged.status).toBe(401);

      await unsuspend(owner.wallet, {});
      const back = await signIn(server.baseUrl, owner.account);
      expect((await request(server.baseUrl, "GET", "/auth/session", { token: back.token })).status).toBe(200);
    });

    it("refuses top-ups and quotes before any payment is looked at: no payment is recorded", async () => {
      const owner = await signIn(server.baseUrl);
      const { apiKey, key } = await createKeyOver(server.baseUrl, owner.token, {
        name: "m",
        credits: { remaining: 1 },
      });
      // Not suspended: the top-up reaches the payment (402 asks for one).
      expect((await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token })).status).toBe(402);
      await suspend(owner.wallet, { reason: "unpaid invoice" });
      for (const answer of [
        await topUpOver(server.baseUrl, apiKey.id, "5", { apiKey: key }),
        await topUpOver(server.baseUrl, apiKey.id, "5", { apiKey: key }, "eyJ4NDAyVmVyc2lvbiI6Mn0="),
      ]) {
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ code: "FORBIDDEN", reason: "WALLET_SUSPENDED" });
        expect(answer.headers.get("payment-required")).toBeNull();
      }
      // The quote (tRPC only) by the key's holder: the same refusal, named over tRPC too.
      const input = encodeURIComponent(JSON.stringify({ json: { id: apiKey.id, amount: "5" } }));
      const quote = await fetch(`${server.baseUrl}/trpc/keys.topUpQuote?input=${input}`, {
        headers: { "x-api-key": key },
      });
      expect(quote.status).toBe(403);
      expect(await quote.json()).toMatchObject({
        error: { json: { data: { code: "FORBIDDEN", reason: "WALLET_SUSPENDED" } } },
      });
      const rows = await target.database.db.select().from(payments).where(eq(payments.keyId, apiKey.id));
      expect(rows).toEqual([]);
    });

    it("refuses the wallet's own key writes with 403 WALLET_SUSPENDED (a session made before the suspension)", async () => {
      const owner = await signIn(server.baseUrl);
      const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "w" });
      await suspend(owner.wallet, { reason: "review" });
      // Sessions ended with the suspension; one signed in just before it landed still meets the check.
      const late = await signIn(server.baseUrl, newAccount());
      await target.database.db
        .update(sessions)
        .set({ wallet: owner.wallet })
        .where(eq(sessions.wallet, late.wallet));
      const writes = [
        await request(server.baseUrl, "POST", "/api-keys", { token: late.token, body: { name: "x" } }),
        await request(server.baseUrl, "PATCH", `/api-keys/${apiKey.id}`, {
          token: late.token,
          body: { name: "y" },
        }),
        await request(server.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, { token: late.token, body: {} }),
      ];
      for (const answer of writes) {
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ code: "FORBIDDEN", reason: "WALLET_SUSPENDED" });
      }
      await unsuspend(owner.wallet, {});
      const renamed = await request(server.baseUrl, "PATCH", `/api-keys/${apiKey.id}`, {
        token: late.token,
        body: { name: "y" },
      });
      expect(renamed.status).toBe(200);
    });

    it("tells the wallet's endpoints and trail as the operator, with the reason and never who", async () => {
      const owner = await signIn(server.baseUrl);
      await target.database.db.insert(webhooks).values({
        id: `wh_${randomBytes(11).toString("hex")}`,
        wallet: owner.wallet,
        url: "https://127.0.0.1:9/hook",
        events: ["wallet.suspended", "wallet.unsuspended"],
        secret: encryptSecret(KEY, newWebhookSecret()),
      });
      await suspend(owner.wallet, { reason: "terms breach" });
      await unsuspend(owner.wallet, { reason: "appeal granted" });
      const messages = await target.database.db
        .select()
        .from(webhookMessages)
        .where(and(eq(webhookMessages.wallet, owner.wallet)))
        .orderBy(asc(webhookMessages.id));
      expect(messages.map((m) => m.payload)).toMatchObject([
        {
          type: "wallet.suspended",
          data: {
            wallet: owner.wallet,
            suspended: { reason: "terms breach" },
            changes: { actor: "operator", reason: "terms breach" },
          },
        },
        {
          type: "wallet.unsuspended",
          data: {
            wallet: owner.wallet,
            suspended: null,
            changes: { actor: "operator", reason: "appeal granted" },
          },
        },
      ]);
      const session = await signIn(server.baseUrl, owner.account);
      const trail = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}/events`, {
        token: session.token,
      });
      const events = (trail.body as { events: Event[] }).events;
      expect(events.find((e) => e.action === "wallet.suspended")?.changes).toEqual({
        actor: "operator",
        reason: "terms breach",
      });
      expect(events.find((e) => e.action === "wallet.unsuspended")?.changes).toEqual({
        actor: "operator",
        reason: "appeal granted",
      });
      const text = JSON.stringify([trail.body, messages]).toLowerCase();
      expect(text).not.toContain(operator.address.toLowerCase());
    });

    it("is in OpenAPI: both routes under the operator tag with their scope, and the new code", async () => {
      const { body } = await request(server.baseUrl, "GET", "/openapi.json");
      const doc = body as {
        paths: Record<string, Record<string, { tags: string[]; "x-operator-scope"?: string }>>;
        components: { schemas: Record<string, unknown> };
      };
      for (const action of ["suspend", "unsuspend"]) {
        expect(doc.paths[`/operator/wallets/{wallet}/${action}`]?.post).toMatchObject({
          tags: ["operator"],
          "x-operator-scope": "wallets:write",
        });
      }
      const text = JSON.stringify(doc.components.schemas);
      expect(text).toContain('"WALLET_SUSPENDED"');
      expect(text).toContain("walletSuspended");
    });

    it("is served over tRPC as operator.wallets.suspend and unsuspend", async () => {
      const owner = await signIn(server.baseUrl);
      const client = trpcClient(server.baseUrl, operatorSession);
      const done = await client.operator.wallets.suspend.mutate({ wallet: owner.wallet, reason: "trpc" });
      expect(done.wallet.suspended?.reason).toBe("trpc");
      const reader = await tokenWith(["wallets:read"]);
      const refused = await trpcClient(server.baseUrl, reader.secret)
        .operator.wallets.unsuspend.mutate({ wallet: owner.wallet })
        .catch((cause: unknown) => cause);
      expect(refused).toBeInstanceOf(TRPCClientError);
      const lifted = await client.operator.wallets.unsuspend.mutate({ wallet: owner.wallet });
      expect(lifted.wallet.suspended).toBeNull();
    });
  });
}
