import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { type KeyportStandIn, startKeyportStandIn } from "./support/keyport-stand-in.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";

const PAYMENTS = {
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  decimals: 6,
  creditsPerToken: 1000,
  min: "1",
  max: "1000",
};

describe("GET /api/meta and the server's payments and sign-in chains", () => {
  let keyport: RunningKeyport;
  let standIn: KeyportStandIn;
  const proxies: RunningProxy[] = [];
  const proxyOn = async (url: string) => {
    const proxy = await startProxy({ KEYPORT_URL: url });
    proxies.push(proxy);
    return proxy;
  };
  const metaOf = async (proxy: RunningProxy) => JSON.parse((await proxy.call("/api/meta")).text);

  beforeAll(async () => {
    [keyport, standIn] = await Promise.all([startKeyport(), startKeyportStandIn()]);
  });
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await Promise.all([keyport.close(), standIn.close()]);
  });

  it("names the chains the server's own sign-in accepts, over the proxy's setting", async () => {
    const running = await startKeyport({ SIWE_CHAIN_IDS: "10,1" });
    try {
      const proxy = await startProxy({ KEYPORT_URL: running.url, SIWE_CHAIN_IDS: "1" });
      proxies.push(proxy);
      expect(await metaOf(proxy)).toMatchObject({ signInChainIds: [10, 1] });
    } finally {
      await running.close();
    }
  });

  it("says payments are off (null) when the real server has none", async () => {
    expect(await metaOf(await proxyOn(keyport.url))).toMatchObject({ payments: null, coingeckoPlan: "demo" });
  });

  it("names the server's token when payments are on, asking the server once for many pages", async () => {
    standIn.behave({
      kind: "answer",
      status: 200,
      body: JSON.stringify({ payments: PAYMENTS, chainIds: [8453] }),
      headers: { "content-type": "application/json" },
    });
    const proxy = await proxyOn(standIn.url);
    expect(await metaOf(proxy)).toMatchObject({ payments: PAYMENTS });
    expect(await metaOf(proxy)).toMatchObject({ payments: PAYMENTS });
    expect(standIn.requests.filter((seen) => seen.url === "/meta")).toHaveLength(1);
  });

  it("leaves payments out, unknown, while the server cannot be asked, and asks again next time", async () => {
    standIn.behave({
      kind: "answer",
      status: 503,
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    const proxy = await startProxy({ KEYPORT_URL: standIn.url, SIWE_CHAIN_IDS: "8453,1" });
    proxies.push(proxy);
    const meta = await metaOf(proxy);
    expect(meta).not.toHaveProperty("payments");
    expect(meta).toMatchObject({ coingeckoPlan: "demo", signInChainIds: [8453, 1] });
    standIn.behave({
      kind: "answer",
      status: 200,
      body: JSON.stringify({ payments: null, chainIds: [1] }),
      headers: { "content-type": "application/json" },
    });
    expect(await metaOf(proxy)).toMatchObject({ payments: null, signInChainIds: [1] });
  });
});
