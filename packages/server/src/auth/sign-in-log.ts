import type { Logger } from "pino";
import type { SiweRefusal } from "./siwe-rules.js";

/** Where refused sign-ins are reported: the operator's side of the caller's generic 401. */
export interface SignInLog {
  /** One refused `auth.verify`: which check failed, from which client address, in which request. */
  refused(check: SiweRefusal, clientIp: string | undefined, requestId: string): void;
}

/**
 * Logs each refused sign-in at info as `{ check, ip, reqId }` "sign-in refused": enough to tell a
 * misconfigured SIWE_DOMAINS or a skewed clock from an attack, and nothing of the message, the
 * signature or the address (which could tie a wallet to an IP address in the logs).
 */
export function createSignInLog(logger: Logger): SignInLog {
  return { refused: (check, ip, reqId) => logger.info({ check, ip, reqId }, "sign-in refused") };
}
