import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { deployTestUsdc, type TestUsdc } from "@keyport/test-support/test-usdc";
import { signPayment } from "@keyport/test-support/x402-payment";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { type RpcProxy, startRpcProxy } from "./support/rpc-proxy.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";
import { paymentsEnv, requiredOf, usdc as tokens, topUpOver } from "./support/top-up.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

let anvil: Anvil;
let token: TestUsdc;
let slowNode: RpcProxy;
const payTo: Address = privateKeyToAccount(generatePrivateKey()).address;
const settlerKeys: [Hex, Hex] = [generatePrivateKey(), generatePrivateKey()];

beforeAll(async () => {
  anvil = await startAnvil();
  token = await deployTestUsdc(anvil.url);
  for (const key of settlerKeys) await token.fundEther(privateKeyToAccount(key).address);
  // The second instance's node answers late: its verification reads the chain after the first
  // instance's settlement spent the authorization.
  slowNode = await startRpcProxy(anvil.url, { delayMs: 300 });
});
afterAll(async () => {
  await slowNode?.close();
  await anvil?.close();
});

// Two instances of one deployment (one database, one Redis when there is one) given the same payment at
// once: the one that loses the race reads the record the other made and answers its result.
describeDatabases("the same payment sent at once to two instances", (target) => {
  const redis = TEST_REDIS_URL === undefined ? {} : sharedRedisEnv(TEST_REDIS_URL);
  let first: TestServer;
  let second: TestServer;
  let owner: { token: string; wallet: string };
  beforeAll(async () => {
    first = await startTestServer(target, {
      ...paymentsEnv(token, anvil.url, payTo, settlerKeys[0]),
      ...redis,
    });
    second = await startTestServer(target, {
      ...paymentsEnv(token, slowNode.url, payTo, settlerKeys[1]),
      ...redis,
    });
    owner = await signIn(first.baseUrl);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await removeRedisKeys(redis);
  });

  it("is credited once and answered 200 on both, never 402 'already used'", async () => {
    for (let round = 0; round < 3; round++) {
      const { apiKey } = await createKeyOver(first.baseUrl, owner.token, {
        name: "m",
        credits: { remaining: 10 },
      });
      const payer = privateKeyToAccount(generatePrivateKey());
      await token.mint(payer.address, tokens(100));
      const unpaid = await topUpOver(first.baseUrl, apiKey.id, "5", { token: owner.token });
      const { header } = await signPayment(payer, requiredOf(unpaid.headers));
      const answers = await Promise.all(
        [first, first, second, second].map((server) =>
          topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, header),
        ),
      );
      expect(answers.map((answer) => [answer.status, answer.body])).toEqual(
        answers.map(() => [
          200,
          expect.objectContaining({ topUp: expect.objectContaining({ credits: 5000 }) }),
        ]),
      );
      const { body } = await request(second.baseUrl, "GET", `/api-keys/${owner.wallet}`, {
        token: owner.token,
      });
      const keys = (body as { keys: { id: string; credits: { remaining: number } | null }[] }).keys;
      expect(keys.find((key) => key.id === apiKey.id)?.credits?.remaining).toBe(5010);
      expect(await token.balanceOf(payer.address)).toBe(tokens(95));
    }
  });
});
