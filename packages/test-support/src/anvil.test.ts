import { describe, expect, it } from "vitest";
import { ANVIL_CHAIN_ID, startAnvil } from "./anvil.js";

async function rpc(url: string, method: string): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

describe("startAnvil", () => {
  it("answers JSON-RPC on its own loopback port with chain id 31337, and is gone after close", async () => {
    const [first, second] = await Promise.all([startAnvil(), startAnvil()]);
    try {
      expect(first.url).not.toBe(second.url);
      expect(Number(await rpc(first.url, "eth_chainId"))).toBe(ANVIL_CHAIN_ID);
      expect(Number(await rpc(second.url, "eth_blockNumber"))).toBe(0);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    await expect(fetch(first.url, { method: "POST" })).rejects.toThrow();
  });
});
