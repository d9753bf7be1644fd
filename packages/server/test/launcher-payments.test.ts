import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, postVerify } from "@keyport/test-support/siwe";
import { TEST_USDC_UNIT, testUsdcAbi } from "@keyport/test-support/test-usdc";
import { signPaymentForHeader } from "@keyport/test-support/x402-payment";
import { type Address, createPublicClient, createWalletClient, getAddress, http, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_FIRST_ACCOUNT, FUNDED_TOKENS, startLocalChain } from "../../../scripts/local-chain.js";
import {
  descendants,
  isAlive,
  LAUNCH_TIMEOUT_MS,
  type Launcher,
  launch,
  ROOT,
  serviceLog,
} from "./support/launcher.js";

// Slow tier: `pnpm start:payments` as docs/payments.md ("Try it locally") runs it: anvil from the
// project's own dependency, the test USDC, payments on against it, both services; a top-up paid from the
// account it prints; Ctrl-C (SIGINT to its process group, as a terminal sends it) stops all of it.

const run = promisify(execFile);
const tokens = (whole: number) => BigInt(whole) * TEST_USDC_UNIT;

/** A token balance read from the chain the banner names. */
async function balanceOf(chainUrl: string, token: Address, account: Address): Promise<bigint> {
  const client = createPublicClient({ transport: http(chainUrl, { retryCount: 0 }) });
  return client.readContract({
    address: token,
    abi: testUsdcAbi,
    functionName: "balanceOf",
    args: [account],
  });
}

/** The banner's value after `label` (e.g. "test USDC 0x..."), or throws naming it. */
function bannerValue(banner: string, pattern: RegExp): string {
  const value = pattern.exec(banner)?.[1];
  if (value === undefined) throw new Error(`no ${pattern} in the banner:\n${banner}`);
  return value;
}

describe("pnpm start:payments", () => {
  let launcher: Launcher;
  let processes: number[];

  beforeAll(async () => {
    launcher = await launch("start:payments");
    if (launcher.child.pid === undefined) throw new Error("no pid");
    processes = [launcher.child.pid, ...descendants(launcher.child.pid)];
  }, LAUNCH_TIMEOUT_MS + 10_000);

  afterAll(() => launcher?.close(), 30_000);

  it("prints the chain, the token and anvil's first default account, and says payments are on", () => {
    const { banner } = launcher;
    expect(banner).toMatch(/^Payments: on, network eip155:31337$/m);
    expect(banner).toMatch(
      /^Local chain: http:\/\/127\.0\.0\.1:\d+ \(chain id 31337\), test USDC 0x[0-9a-fA-F]{40}/m,
    );
    expect(banner).toContain("public knowledge");
    expect(banner).toContain(`address     ${ANVIL_FIRST_ACCOUNT.address}`);
    expect(banner).toContain(`private key ${ANVIL_FIRST_ACCOUNT.privateKey}`);
    expect(serviceLog(launcher.output(), "server")).toContainEqual(
      expect.objectContaining({ payments: "on", network: "eip155:31337" }),
    );
  });

  it("takes a top-up paid from the printed account, signed in on the local chain", async () => {
    const chainUrl = bannerValue(launcher.banner, /^Local chain: (\S+)/m);
    const token = getAddress(bannerValue(launcher.banner, /test USDC (0x[0-9a-fA-F]{40})/));
    const payTo = getAddress(bannerValue(launcher.banner, /payments go to (0x[0-9a-fA-F]{40})/));
    const privateKey = bannerValue(launcher.banner, /private key (0x[0-9a-f]{64})/);
    if (!isHex(privateKey)) throw new Error("the printed key is not hex");
    const payer = privateKeyToAccount(privateKey);
    expect(await balanceOf(chainUrl, token, payer.address)).toBe(tokens(FUNDED_TOKENS));

    // The wallet stays on the local chain to sign in (SIWE_CHAIN_IDS=1,31337).
    const serverUrl = `http://127.0.0.1:${launcher.serverPort}`;
    const domain = `localhost:${launcher.dashboardPort}`;
    const message = buildSiweMessage(payer, await fetchNonce(serverUrl), {
      domain,
      uri: `http://${domain}/`,
      chainId: 31337,
    });
    const session = await postVerify(serverUrl, payer, message);
    expect(session.status).toBe(200);
    const sessionToken = String(Reflect.get(Object(session.body), "token"));

    const created = await request(serverUrl, "POST", "/api-keys", {
      token: sessionToken,
      body: { name: "local payments", credits: { remaining: 1 } },
    });
    expect(created.status).toBe(201);
    const id = String(Reflect.get(Object(Reflect.get(Object(created.body), "apiKey")), "id"));
    const topUp = (headers: Record<string, string> = {}) =>
      request(serverUrl, "POST", `/api-keys/${id}/top-up`, {
        token: sessionToken,
        body: { amount: "2" },
        headers,
      });

    const required = await topUp();
    expect(required.status).toBe(402);
    const payment = await signPaymentForHeader(payer, required.headers.get("payment-required") ?? "");
    const paid = await topUp({ "payment-signature": payment.header });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ apiKey: { credits: { remaining: 2_001, purchased: 2_000 } } });
    expect(await balanceOf(chainUrl, token, payer.address)).toBe(tokens(FUNDED_TOKENS - 2));
    expect(await balanceOf(chainUrl, token, payTo)).toBe(tokens(2));
  });

  it("stops all of it on Ctrl-C, the chain included, and leaves no process behind", async () => {
    const chainUrl = bannerValue(launcher.banner, /^Local chain: (\S+)/m);
    // pnpm, the launcher, the two services and anvil at least.
    expect(processes.length).toBeGreaterThanOrEqual(5);
    expect(await launcher.interrupt("SIGINT")).toBe(0);
    await expect.poll(() => processes.filter(isAlive), { timeout: 30_000 }).toEqual([]);
    await expect(fetch(chainUrl, { method: "POST" })).rejects.toThrow();
    expect(launcher.output()).not.toMatch(/keyport: the (server|dashboard) stopped/);
  });
});

describe("pnpm start:payments --fund", () => {
  it("refuses an address that is not one before it builds anything", async () => {
    const refused = await run("pnpm", ["start:payments", "--fund", "0x1234"], { cwd: ROOT }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect(String(Reflect.get(Object(refused), "stderr"))).toContain(
      'keyport: --fund takes a wallet address, 0x and 40 hex characters (got "0x1234")',
    );
    expect(String(Reflect.get(Object(refused), "stdout"))).not.toContain("building");
  });

  it("refuses --fund without --payments", async () => {
    const refused = await run("pnpm", ["start", "--fund", ANVIL_FIRST_ACCOUNT.address], { cwd: ROOT }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect(String(Reflect.get(Object(refused), "stderr"))).toContain("keyport: --fund needs --payments");
  });

  it("mints 1,000 test USDC to each address given, and none to anvil's default account", async () => {
    const wallets = [0, 1].map(() => privateKeyToAccount(generatePrivateKey()).address);
    const chain = await startLocalChain(wallets);
    try {
      for (const wallet of wallets) {
        expect(await balanceOf(chain.url, chain.token, wallet)).toBe(tokens(FUNDED_TOKENS));
      }
      expect(await balanceOf(chain.url, chain.token, ANVIL_FIRST_ACCOUNT.address)).toBe(0n);
      expect(chain.env).toMatchObject({ PAYMENTS_NETWORK: "eip155:31337", PAYMENTS_ASSET: chain.token });
    } finally {
      await chain.close();
    }
  });

  it("names anvil's first default account rightly: the node's own first account, with that key", async () => {
    expect(privateKeyToAccount(ANVIL_FIRST_ACCOUNT.privateKey).address).toBe(ANVIL_FIRST_ACCOUNT.address);
    const chain = await startLocalChain([]);
    try {
      const client = createWalletClient({ transport: http(chain.url, { retryCount: 0 }) });
      const [first] = await client.getAddresses();
      expect(first && getAddress(first)).toBe(ANVIL_FIRST_ACCOUNT.address);
    } finally {
      await chain.close();
    }
  });
});
