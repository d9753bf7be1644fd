import { describe, expect, it } from "vitest";
import { chainList, chainName, WrongChainError } from "./chains";

describe("chains in words", () => {
  it("names known chains and numbers the others", () => {
    expect(chainName(1)).toBe("Ethereum");
    expect(chainName(137)).toBe("Polygon");
    expect(chainName(31337)).toBe("chain 31337");
  });

  it("lists the chains that sign in", () => {
    expect(chainList([1])).toBe("Ethereum");
    expect(chainList([1, 8453])).toBe("Ethereum or Base");
    expect(chainList([1, 8453, 10])).toBe("Ethereum, Base or OP Mainnet");
    expect(new WrongChainError(137, [1]).message).toBe(
      "The wallet is on Polygon; Keyport signs in on Ethereum.",
    );
  });
});
