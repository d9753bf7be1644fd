import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import { describeRpcFailure, isTransientRpcFailure } from "./rpc-failure.js";
import { SettlementUnavailableError } from "./settler.js";

const URL_WITH_KEY = "https://base-mainnet.example.com/v2/sk_live_provider_key";
const BODY = { method: "eth_getCode", params: ["0xPAYMENT"] };

describe("a failed call to the payments node", () => {
  it("counts HTTP failures, timeouts and overload codes as transient, a revert as the chain's answer", () => {
    expect(isTransientRpcFailure(new HttpRequestError({ url: URL_WITH_KEY, status: 429, body: BODY }))).toBe(
      true,
    );
    expect(isTransientRpcFailure(new TimeoutError({ url: URL_WITH_KEY, body: BODY }))).toBe(true);
    const limit = new RpcRequestError({
      url: URL_WITH_KEY,
      body: BODY,
      error: { code: -32005, message: "limit" },
    });
    expect(isTransientRpcFailure(new Error("wrapped", { cause: limit }))).toBe(true);
    const revert = new RpcRequestError({
      url: URL_WITH_KEY,
      body: BODY,
      error: { code: 3, message: "reverted" },
    });
    expect(isTransientRpcFailure(revert)).toBe(false);
  });

  it("is described and carried without the node's URL or the request body", () => {
    const error = new HttpRequestError({ url: URL_WITH_KEY, status: 500, body: BODY });
    expect(error.message).toContain("sk_live_provider_key");
    expect(describeRpcFailure(error)).toBe("the node answered HTTP 500");
    const unavailable = new SettlementUnavailableError(new Error("outer", { cause: error }));
    const carried = unavailable.cause instanceof Error ? unavailable.cause.message : "";
    expect(carried).toBe("the node answered HTTP 500");
    expect(JSON.stringify({ message: unavailable.message, carried })).not.toMatch(/sk_live|0xPAYMENT/);
  });
});
