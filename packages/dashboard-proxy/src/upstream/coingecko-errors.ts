import { z } from "zod";
import type { UpstreamFailure } from "./failure.js";

// Error bodies are read only for CoinGecko's numeric code, and never logged or relayed.
const MAX_ERROR_BYTES = 64 * 1024;

/**
 * CoinGecko's `error_code` from an error body: `{ "status": { "error_code": 10002 } }` or, for
 * some 401s, `{ "error": { "status": { "error_code": 10012 } } }`. Undefined when absent or unreadable.
 */
export async function readErrorCode(response: Response): Promise<number | undefined> {
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_ERROR_BYTES) {
    await response.body?.cancel();
    return undefined;
  }
  try {
    const text = await response.text();
    if (text.length > MAX_ERROR_BYTES) return undefined;
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    return parsed.data.status?.error_code ?? parsed.data.error?.status?.error_code;
  } catch {
    return undefined;
  }
}

const statusSchema = z.looseObject({ error_code: z.number().int().optional() });
const errorBodySchema = z.looseObject({
  status: statusSchema.optional().catch(undefined),
  error: z
    .looseObject({ status: statusSchema.optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

/**
 * Sorts a CoinGecko refusal (codes from its "Errors & Rate Limits" page,
 * https://docs.coingecko.com/docs/errors-and-rate-limits): the plan's limits are the caller's
 * answer (a 4xx); a refused key or a key on the other plan's host is the operator's to fix.
 */
export function classifyRefusal(status: number, errorCode: number | undefined): UpstreamFailure {
  const detail = errorCode === undefined ? `HTTP ${status}` : `HTTP ${status} error_code ${errorCode}`;
  switch (errorCode) {
    case 10012: // "Your request exceeds the allowed time range" (Demo: the past 365 days)
    case 10005: // "Plan Restricted": not available on this plan
      return { kind: "plan_limit", detail };
    case 10010:
      return {
        kind: "misconfigured",
        setting: "COINGECKO_PLAN",
        hint: "CoinGecko says this is a Pro key sent to the Demo host: set COINGECKO_PLAN=pro (or use a Demo key)",
        detail,
      };
    case 10011:
      return {
        kind: "misconfigured",
        setting: "COINGECKO_PLAN",
        hint: "CoinGecko says this is a Demo key sent to the Pro host: set COINGECKO_PLAN=demo (or use a Pro key)",
        detail,
      };
    case 10002:
      return {
        kind: "misconfigured",
        setting: "COINGECKO_API_KEY",
        hint: "CoinGecko refused the API key (missing or incorrect): check COINGECKO_API_KEY",
        detail,
      };
  }
  if (status === 401) {
    return {
      kind: "misconfigured",
      setting: "COINGECKO_API_KEY",
      hint: "CoinGecko refused the API key: check COINGECKO_API_KEY and COINGECKO_PLAN",
      detail,
    };
  }
  if (status === 404) return { kind: "not_found", detail };
  if (status === 400) return { kind: "rejected", detail };
  return { kind: "bad_gateway", detail };
}
