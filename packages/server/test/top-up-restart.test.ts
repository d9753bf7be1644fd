import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { deployTestUsdc, type TestUsdc } from "@keyport/test-support/test-usdc";
import { signPayment } from "@keyport/test-support/x402-payment";
import { createTestClient, type Hex, http, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { type ServerProcess, spawnServer } from "./support/process.js";
import { paymentsEnv, requiredOf, usdc as tokens, topUpOver } from "./support/top-up.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A real child process killed with SIGKILL after its settlement was mined and before its credits: the next
// start credits the payment exactly once, from the chain (docs/payments.md, exactly once).
describe("a top-up whose process dies between mining and crediting", () => {
  let anvil: Anvil;
  let token: TestUsdc;
  let database: { env: Record<string, string>; remove(): Promise<void> };
  const servers: ServerProcess[] = [];
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const settlerKey: Hex = generatePrivateKey();

  beforeAll(async () => {
    anvil = await startAnvil();
    token = await deployTestUsdc(anvil.url);
    await token.fundEther(privateKeyToAccount(settlerKey).address);
    if (TEST_DATABASE_URL) {
      const created = await createPostgresTestDatabase(TEST_DATABASE_URL);
      database = { env: { DATABASE_URL: created.url }, remove: created.drop };
    } else {
      const dir = mkdtempSync(join(tmpdir(), "keyport-top-up-restart-"));
      database = {
        env: { DATA_DIR: dir },
        remove: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    await database?.remove();
    await anvil?.close();
  });

  const start = async () => {
    const server = await spawnServer({
      ...database.env,
      ...paymentsEnv(token, anvil.url, payTo, settlerKey),
      PAYMENTS_CONFIRMATIONS: "3",
      NONCE_RATE_LIMIT: "off",
    });
    servers.push(server);
    return server;
  };

  it("credits the payment once on the next start, and a replay adds nothing", async () => {
    const first = await start();
    const owner = await signIn(first.baseUrl);
    const { apiKey } = await createKeyOver(first.baseUrl, owner.token, {
      name: "m",
      credits: { remaining: 10 },
    });
    const payer = privateKeyToAccount(generatePrivateKey());
    await token.mint(payer.address, tokens(100));
    const unpaid = await topUpOver(first.baseUrl, apiKey.id, "5", { token: owner.token });
    const payment = await signPayment(payer, requiredOf(unpaid.headers));
    const { nonce } = z
      .object({ authorization: z.object({ nonce: z.string().refine(isHex) }) })
      .parse(payment.payload.payload).authorization;

    // The settlement is mined at once (anvil mines each transaction); the server then waits for 2 more blocks.
    const pending = topUpOver(first.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header).catch(
      () => null,
    );
    while (!(await token.authorizationUsed(payer.address, nonce))) await sleep(20);
    await sleep(300);
    await first.stop("SIGKILL");
    expect(await pending).toBeNull();
    expect(await token.balanceOf(payer.address)).toBe(tokens(95));
    await createTestClient({ mode: "anvil", transport: http(anvil.url) }).mine({ blocks: 2 });

    const second = await start();
    const remainingOf = async () => {
      const { body } = await request(second.baseUrl, "GET", `/api-keys/${owner.wallet}`, {
        token: owner.token,
      });
      const keys = (body as { keys: { id: string; credits: { remaining: number } | null }[] }).keys;
      return keys.find((key) => key.id === apiKey.id)?.credits?.remaining;
    };
    // The dead worker's lock lapses within 15 s; the reconciler passes every 15 s.
    const until = Date.now() + 60_000;
    while ((await remainingOf()) !== 5010 && Date.now() < until) await sleep(250);
    expect(await remainingOf()).toBe(5010);
    expect(second.output()).toContain("payments reconciled");

    const replay = await topUpOver(second.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ topUp: { amount: "5", credits: 5000 } });
    await sleep(500);
    expect(await remainingOf()).toBe(5010);
    expect(await token.balanceOf(payer.address)).toBe(tokens(95));
  });
});
