import { UserRejectedRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { describeTopUpError, InsufficientBalanceError, WrongNetworkError } from "./top-up-errors";

// The shape tRPC's client error has on the page: the HTTP status in `data`, the server's message.
const serverError = (httpStatus: number, message: string) =>
  Object.assign(new Error(message), { data: { httpStatus } });

describe("a failed top-up in words", () => {
  it("says the user declined, however deep the wallet's 4001 sits", () => {
    const declined = "You declined the signature in your wallet. Nothing was paid.";
    expect(describeTopUpError(Object.assign(new Error("no"), { code: 4001 }), "5")).toBe(declined);
    expect(describeTopUpError(new UserRejectedRequestError(new Error("User rejected")), "5")).toBe(declined);
  });

  it("names the amount a payer short of USDC needs, before signing or from the server's refusal", () => {
    expect(describeTopUpError(new InsufficientBalanceError("15", "100"), "100")).toBe(
      "Your wallet holds 15 USDC; this top-up needs 100 USDC. Nothing was paid.",
    );
    expect(describeTopUpError(serverError(402, "The payment was refused: insufficient_funds"), "100")).toBe(
      "Your wallet does not hold the 100 USDC this top-up needs. Nothing was paid.",
    );
  });

  it("names the wallet's chain and the payment's", () => {
    expect(describeTopUpError(new WrongNetworkError(1, 8453), "5")).toBe(
      "Your wallet is on Ethereum; this payment is made on Base.",
    );
  });

  it("puts the server's 402, 409, 501 and 503 in words", () => {
    expect(describeTopUpError(serverError(402, "The payment was refused: invalid_signature"), "5")).toBe(
      "The payment was not accepted (The payment was refused: invalid_signature). Nothing was paid.",
    );
    expect(describeTopUpError(serverError(409, "A revoked key cannot be topped up"), "5")).toBe(
      "A revoked key cannot be topped up.",
    );
    expect(describeTopUpError(serverError(501, "Payments are off on this server"), "5")).toBe(
      "Payments are off on this server. Nothing was paid.",
    );
    expect(describeTopUpError(serverError(501, ""), "5")).toBe(
      "Top-ups are off on this Keyport server: it takes no payments.",
    );
    expect(describeTopUpError(serverError(503, "retry"), "5")).toMatch(/^The payment is not settled yet/);
  });
});
