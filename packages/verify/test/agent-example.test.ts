import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type PaymentsChain, startPaymentsChain } from "@keyport/test-support/payments-chain";
import { TEST_USDC_UNIT } from "@keyport/test-support/test-usdc";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, startBackend } from "./support/apps.js";
import { type Keyport, startKeyport } from "./support/keyport.js";

// Slow tier: examples/agent.ts, the agent docs/payments.md shows ("The agent loop"), run as its own
// process with tsx as a reader would run it, against Keyport and a Hono backend with keyport({ topUp })
// on a local anvil chain with the test USDC (a token x402 does not know, which the example allows).

const run = promisify(execFile);
const verifyDir = fileURLToPath(new URL("..", import.meta.url));
const tsx = fileURLToPath(import.meta.resolve("tsx/cli"));
const tokens = (whole: number) => BigInt(whole) * TEST_USDC_UNIT;

let chain: PaymentsChain;
let keyport: Keyport;
let backend: Backend;

beforeAll(async () => {
  chain = await startPaymentsChain();
  keyport = await startKeyport(chain.env);
  backend = await startBackend("hono", { baseUrl: keyport.baseUrl, topUp: { amount: "2" } });
});
afterAll(async () => {
  await backend?.close();
  await keyport?.close();
  await chain?.close();
});

describe("examples/agent.ts", () => {
  it("pays for its key's credits from its own wallet and prints the backend's answer", async () => {
    const { key } = await keyport.createKey({ name: "agent", credits: { remaining: 0 } });
    const agentKey = generatePrivateKey();
    const agent = privateKeyToAccount(agentKey).address;
    await chain.usdc.mint(agent, tokens(10));

    const { stdout } = await run(process.execPath, [tsx, "examples/agent.ts"], {
      cwd: verifyDir,
      env: {
        PATH: process.env.PATH ?? "",
        AGENT_PRIVATE_KEY: agentKey,
        API_KEY: key,
        API_URL: backend.url,
        TOKEN: chain.usdc.address,
      },
    });
    const [status, ...body] = stdout.trim().split(" ");
    expect(status).toBe("200");
    expect(JSON.parse(body.join(" "))).toMatchObject({
      keyport: { valid: true, credits: { remaining: 1_999, purchased: 1_999 } },
    });
    expect(await chain.usdc.balanceOf(agent)).toBe(tokens(8));
    expect(await chain.usdc.balanceOf(chain.payTo)).toBe(tokens(2));
  });
});
