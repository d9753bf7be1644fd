import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { signIn } from "@keyport/test-support/siwe";
import { deployTestUsdc, type TestUsdc } from "@keyport/test-support/test-usdc";
import type { PaymentRequired } from "@x402/core/types";
import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { payments } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";
import {
  type AuthorizationChange,
  creditsRemaining,
  paymentsEnv,
  requiredOf,
  signAuthorization,
  usdc as tokens,
  topUpOver,
  unpaidTopUp,
} from "./support/top-up.js";
import { startTrustingFacilitator, type TrustingFacilitator } from "./support/trusting-facilitator.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let anvil: Anvil;
let token: TestUsdc;
let facilitator: TrustingFacilitator;
const payTo: Address = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  anvil = await startAnvil();
  token = await deployTestUsdc(anvil.url);
  facilitator = await startTrustingFacilitator(token);
});
afterAll(async () => {
  await facilitator?.close();
  await anvil?.close();
});

// Behind a facilitator that checks nothing (it settles whatever it is given), only Keyport's own checks
// stand between a payment that claims to pay the requirement and credits it did not pay for.
describeDatabases("Keyport's own checks of a payment, behind a facilitator that checks nothing", (target) => {
  let server: TestServer;
  let owner: { token: string; wallet: string };
  beforeAll(async () => {
    const { PAYMENTS_SETTLER_PRIVATE_KEY: _, ...onChain } = paymentsEnv(
      token,
      anvil.url,
      payTo,
      generatePrivateKey(),
    );
    server = await startTestServer(target, { ...onChain, PAYMENTS_FACILITATOR_URL: facilitator.url });
    owner = await signIn(server.baseUrl);
  });
  afterAll(() => server?.close());

  const setUp = () => unpaidTopUp(server.baseUrl, owner.token, token);

  const remainingOf = (id: string) => creditsRemaining(server.baseUrl, owner, id);

  it("credits a payment that pays the requirement exactly (the facilitator would settle anything)", async () => {
    facilitator.setMode("settle");
    const { id, payer, wanted } = await setUp();
    const { header } = await signAuthorization(payer, wanted);
    const answer = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(answer.status).toBe(200);
    expect(await remainingOf(id)).toBe(5010);
    expect(await token.balanceOf(payer.address)).toBe(tokens(95));
  });

  const other = privateKeyToAccount(generatePrivateKey()).address;
  const cases: [string, AuthorizationChange, Partial<PaymentRequired["accepts"][number]>, string][] = [
    // The signed authorization differs while `accepted` echoes the requirement.
    ["signs a smaller value", { value: tokens(4) }, {}, "The payment is for another amount"],
    ["signs a larger value", { value: tokens(6) }, {}, "The payment is for another amount"],
    ["signs another recipient", { to: other }, {}, "The payment is to another address"],
    ["expires within 6 seconds", { validBeforeSeconds: 3 }, {}, "The payment authorization has expired"],
    ["expired already", { validBeforeSeconds: -5 }, {}, "The payment authorization has expired"],
    ["is valid only later", { validAfterSeconds: 30 }, {}, "The payment authorization is not valid yet"],
    // The authorization pays exactly, while `accepted` names another requirement.
    ["accepts another amount", {}, { amount: "4000000" }, "The payment is for another amount"],
    ["accepts another recipient", {}, { payTo: other }, "The payment is to another address"],
    ["accepts another asset", {}, { asset: other }, "The payment is in another asset"],
    ["accepts another network", {}, { network: "eip155:8453" }, "The payment is for another network"],
    ["accepts another timeout", {}, { maxTimeoutSeconds: 3600 }, "The payment's maxTimeoutSeconds differs"],
    ["accepts another scheme", {}, { scheme: "upto" }, "The payment's scheme is not exact"],
  ];
  for (const [name, change, accepted, message] of cases) {
    it(`refuses with 402 a payment that ${name}, before the facilitator is asked; nothing moves`, async () => {
      facilitator.setMode("settle");
      const { id, payer, wanted } = await setUp();
      const calls = { ...facilitator.calls };
      const { header } = await signAuthorization(payer, wanted, change, accepted);
      const answer = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
      expect(answer.body).toEqual({ code: "PAYMENT_REQUIRED", message });
      expect(answer.status).toBe(402);
      expect(requiredOf(answer.headers).accepts[0]?.amount).toBe("5000000");
      expect(facilitator.calls).toEqual(calls);
      expect(await remainingOf(id)).toBe(10);
      expect(await token.balanceOf(payer.address)).toBe(tokens(100));
      expect(await token.balanceOf(other)).toBe(0n);
    });
  }

  it("fails a payment never settled once its authorization expired: the reconciler closes it", async () => {
    facilitator.setMode("fail");
    const { id, payer, wanted } = await setUp();
    const { header, nonce } = await signAuthorization(payer, wanted, { validBeforeSeconds: 8 });
    const answer = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(answer.status).toBe(503);
    const { db } = server.app.services.database;
    const row = async () => {
      const [found] = await db.select().from(payments).where(eq(payments.nonce, nonce.toLowerCase()));
      return found;
    };
    expect((await row())?.status).toBe("pending");
    // Nobody sends it again: only the reconciler (every 15 s) can close it, after its validBefore.
    const until = Date.now() + 90_000;
    while ((await row())?.status !== "failed" && Date.now() < until) await sleep(250);
    expect(await row()).toMatchObject({
      status: "failed",
      answer: { kind: "refused", message: "The payment authorization expired before it was settled" },
    });
    const replay = await topUpOver(server.baseUrl, id, "5", { token: owner.token }, header);
    expect(replay.body).toEqual({
      code: "PAYMENT_REQUIRED",
      message: "The payment authorization expired before it was settled",
    });
    expect(await remainingOf(id)).toBe(10);
    expect(await token.balanceOf(payer.address)).toBe(tokens(100));
  });
});
