import { z } from "zod";
import { describeError, errorStatus } from "../../lib/errors";

// viem and wagmi errors carry EIP-1193's code (4001: the user said no) and a one-line `shortMessage`.
const walletError = z.object({
  code: z.number().optional(),
  name: z.string().optional(),
  shortMessage: z.string().optional(),
  cause: z.unknown().optional(),
});

function isRejection(error: unknown, depth = 0): boolean {
  const parsed = walletError.safeParse(error);
  if (!parsed.success || depth > 5) return false;
  if (parsed.data.code === 4001 || parsed.data.name === "UserRejectedRequestError") return true;
  return isRejection(parsed.data.cause, depth + 1);
}

const withMessage = z.object({ message: z.string().min(1) });

/**
 * A sentence for a failed sign-in: declined in the wallet, refused by the server (with the server's
 * sentence for the check that failed: domain, URI, chain, expiry, nonce or signature; none is secret,
 * docs/api.md#refused-sign-ins; or, 403, that the deployment's operator suspended the wallet,
 * docs/operator.md#suspension), or unreachable.
 */
export function describeSignInError(error: unknown): string {
  if (isRejection(error)) return "The wallet declined the request. Nothing was signed.";
  const status = errorStatus(error);
  if (status === 403) {
    const refused = withMessage.safeParse(error);
    if (refused.success) return `Keyport refused the sign-in: ${refused.data.message}`;
  }
  if (status === 401) {
    const refused = withMessage.safeParse(error);
    return refused.success
      ? `Keyport refused the sign-in: ${refused.data.message}`
      : "Keyport did not accept the signature. Please try again.";
  }
  if (errorStatus(error) !== undefined) return describeError(error);
  const parsed = walletError.safeParse(error);
  if (parsed.success && parsed.data.shortMessage) return `Sign-in failed: ${parsed.data.shortMessage}`;
  return describeError(error);
}
