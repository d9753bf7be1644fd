import { describe, expect, it } from "vitest";
import { amountWords, formatBaseUnits, networkWords, paymentAmountWords } from "./token-amount";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

describe("token amounts", () => {
  it("places the decimal point exactly, whatever the size", () => {
    expect(formatBaseUnits("5250000", 6)).toBe("5.25");
    expect(formatBaseUnits("5000000", 6)).toBe("5");
    expect(formatBaseUnits("1", 6)).toBe("0.000001");
    expect(formatBaseUnits("0", 6)).toBe("0");
    expect(formatBaseUnits("123456789012345678901234567", 6)).toBe("123,456,789,012,345,678,901.234567");
    expect(formatBaseUnits("-1500000", 6)).toBe("-1.5");
    expect(formatBaseUnits("12", 0)).toBe("12");
    expect(formatBaseUnits("not a number", 6)).toBe("not a number");
  });

  it("names a network by its chain, and an unknown one as it is", () => {
    expect(networkWords("eip155:8453")).toBe("Base");
    expect(networkWords("eip155:31337")).toBe("chain 31337");
    expect(networkWords("solana:mainnet")).toBe("solana:mainnet");
  });

  it("words the server's own token in USDC and any other in base units", () => {
    const token = { network: "eip155:8453", asset: USDC, decimals: 6 };
    const total = { network: "eip155:8453", asset: USDC.toLowerCase(), baseUnits: "12500000" };
    expect(amountWords(total, token)).toBe("12.5 USDC on Base");
    expect(amountWords({ ...total, network: "eip155:1" }, token)).toBe(
      "12500000 base units of 0x8335…2913 on Ethereum",
    );
    expect(amountWords(total, undefined)).toBe("12500000 base units of 0x8335…2913 on Base");
  });

  it("words one payment in USDC when it is the server's token, else with the asset's address", () => {
    const token = { network: "eip155:8453", asset: USDC, decimals: 6 };
    const payment = { network: "eip155:8453", asset: USDC.toLowerCase(), amount: "5" };
    expect(paymentAmountWords(payment, token)).toBe("5 USDC on Base");
    expect(paymentAmountWords(payment, undefined)).toBe("5 of 0x8335…2913 on Base");
  });
});
