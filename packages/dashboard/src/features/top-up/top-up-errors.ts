import { z } from "zod";
import { describeError, errorStatus } from "../../lib/errors";
import { chainName } from "../session/chains";

/** The wallet is on another chain than the payment's network; nothing was signed. */
export class WrongNetworkError extends Error {
  override name = "WrongNetworkError";
  constructor(
    readonly chainId: number,
    readonly target: number,
  ) {
    super(`Your wallet is on ${chainName(chainId)}; this payment is made on ${chainName(target)}.`);
  }
}

/** The payer's token balance is below the amount; nothing was signed. */
export class InsufficientBalanceError extends Error {
  override name = "InsufficientBalanceError";
  constructor(
    readonly balance: string,
    readonly needed: string,
  ) {
    super(`Your wallet holds ${balance} USDC; this top-up needs ${needed} USDC. Nothing was paid.`);
  }
}

// viem and wagmi errors carry EIP-1193's code (4001: the user said no), possibly a few causes deep.
const walletError = z.object({
  code: z.number().optional(),
  name: z.string().optional(),
  cause: z.unknown().optional(),
});

function isRejection(error: unknown, depth = 0): boolean {
  const parsed = walletError.safeParse(error);
  if (!parsed.success || depth > 5) return false;
  if (parsed.data.code === 4001 || parsed.data.name === "UserRejectedRequestError") return true;
  return isRejection(parsed.data.cause, depth + 1);
}

const withMessage = z.object({ message: z.string() });

const withStop = (sentence: string) => (/[.!?]$/.test(sentence) ? sentence : `${sentence}.`);

/**
 * A failed top-up in words: declined in the wallet, too little USDC, another chain, or the server's
 * 402 (the payment refused, with its reason), 409 (the key cannot be topped up), 501 (payments off)
 * and 503 (not settled yet: the credits come once it settles).
 */
export function describeTopUpError(error: unknown, needed: string): string {
  if (isRejection(error)) return "You declined the signature in your wallet. Nothing was paid.";
  if (error instanceof WrongNetworkError || error instanceof InsufficientBalanceError) return error.message;
  const status = errorStatus(error);
  const message = withMessage.safeParse(error);
  const reason = message.success ? message.data.message : "";
  switch (status) {
    case 402:
      // The facilitator's reason for a payer short of funds (x402's `insufficient_funds`).
      if (/insufficient/i.test(reason)) {
        return `Your wallet does not hold the ${needed} USDC this top-up needs. Nothing was paid.`;
      }
      return `The payment was not accepted (${reason || "no reason given"}). Nothing was paid.`;
    case 409:
      return reason === "" ? "This key cannot be topped up." : `${reason}.`;
    case 501:
      // The server says why in the envelope ("Payments are off on this server").
      return reason === ""
        ? "Top-ups are off on this Keyport server: it takes no payments."
        : `${withStop(reason)} Nothing was paid.`;
    case 503:
      return "The payment is not settled yet: the chain or the payment service is not answering. If it settles, the credits are added without another signature; check the key's activity in a minute.";
    default:
      return describeError(error);
  }
}
