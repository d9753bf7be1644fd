import type { H3 } from "h3";
import type { Logger } from "pino";
import { type CoinGeckoClient, pingRequest } from "./coingecko.js";
import type { UpstreamFailure } from "./failure.js";

/** How long the start-up check waits for CoinGecko's `/ping` (docs/dashboard-proxy.md). */
export const STARTUP_CHECK_TIMEOUT_MS = 3_000;

/**
 * The check's outcome: CoinGecko took the key on this host, or why not, with the setting to fix when
 * one is to blame (none when the host name does not resolve: this machine is offline or its DNS is down).
 */
export type StartupCheckResult =
  | { ok: true }
  | { ok: false; failure: UpstreamFailure; setting: string | undefined };

/** Error codes of a host name that does not resolve: no such name, or no DNS answer right now. */
const DNS_FAILURES: ReadonlySet<string> = new Set(["ENOTFOUND", "EAI_AGAIN"]);

interface StartupCheck {
  client: CoinGeckoClient;
  logger: Logger;
}

// The check belongs to the app that registered the price routes: it must use their client, so the
// call is paid from the same upstream budget.
const checks = new WeakMap<H3, StartupCheck>();

/** Called by the price routes with the client they use (budget included). */
export function registerStartupCheck(app: H3, check: StartupCheck): void {
  checks.set(app, check);
}

/**
 * Calls CoinGecko's `/ping` once (3 s at most) through the app's own CoinGecko client and logs the
 * outcome: info when the key and host work, a warning naming the setting to fix when not. Never
 * throws; `main.ts` starts it after listening and does not wait for it (`COINGECKO_STARTUP_CHECK=off`
 * skips it). Resolves undefined for an app without price routes.
 * @example void runStartupCheck(app)
 */
export async function runStartupCheck(
  app: H3,
  timeoutMs = STARTUP_CHECK_TIMEOUT_MS,
): Promise<StartupCheckResult | undefined> {
  const check = checks.get(app);
  if (check === undefined) return undefined;
  const timeout = AbortSignal.timeout(timeoutMs);
  const result = await check.client.send(pingRequest(), timeout);
  if (result.ok) {
    check.logger.info({ upstream: "coingecko" }, "CoinGecko start-up check passed: the key and host work");
    return { ok: true };
  }
  const failure: UpstreamFailure = timeout.aborted ? { kind: "timeout", detail: "timeout" } : result.failure;
  if (failure.kind === "bad_gateway" && DNS_FAILURES.has(failure.detail)) {
    // Offline, or no DNS: no setting is wrong, so none is named (the default host fails the same way).
    check.logger.warn(
      { upstream: "coingecko", failure: { kind: failure.kind, detail: failure.detail } },
      `CoinGecko start-up check failed: CoinGecko is not reachable (DNS: its host name does not resolve, ${failure.detail}); market data will fail until it resolves`,
    );
    return { ok: false, failure, setting: undefined };
  }
  const setting = settingFor(failure);
  check.logger.warn(
    { upstream: "coingecko", setting, failure: { kind: failure.kind, detail: failure.detail } },
    failure.kind === "misconfigured"
      ? `CoinGecko start-up check failed: ${failure.hint}`
      : `CoinGecko start-up check failed (${failure.kind}): check ${setting}; market data may fail`,
  );
  return { ok: false, failure, setting };
}

function settingFor(failure: UpstreamFailure): string {
  if (failure.kind === "misconfigured") return failure.setting;
  if (failure.kind === "budget_spent") return "COINGECKO_CALLS_PER_MINUTE";
  // Unreachable, slow or not CoinGecko: the host is the likely culprit.
  return "COINGECKO_BASE_URL";
}
