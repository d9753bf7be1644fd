import { fileURLToPath } from "node:url";
import { isTrustedProxyEntry } from "@keyport/node-edge";
import { z } from "zod";

/** CoinGecko's two hosts and the header each expects the key in. */
export const COINGECKO_PLANS = {
  demo: { baseUrl: "https://api.coingecko.com/api/v3", keyHeader: "x-cg-demo-api-key" },
  pro: { baseUrl: "https://pro-api.coingecko.com/api/v3", keyHeader: "x-cg-pro-api-key" },
  // Enterprise is served by the Pro host with a Pro key; it differs in what it offers (intervals).
  enterprise: { baseUrl: "https://pro-api.coingecko.com/api/v3", keyHeader: "x-cg-pro-api-key" },
} as const;

// `.env` files often hold `KEY=` for "unset": treat empty strings as absent.
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

const httpUrl = optionalString.pipe(
  z
    .url({ protocol: /^https?$/ })
    .refine((url) => !/[?#]/.test(url), "must not carry a query or fragment")
    .optional(),
);

const boundedInt = (min: number, max: number, fallback: number) =>
  optionalString.pipe(
    z
      .string()
      .regex(/^[0-9]+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(min).max(max))
      .default(fallback),
  );

/** A whole number in `min..max`, or undefined when unset (its default depends on other settings). */
const optionalInt = (min: number, max: number) =>
  optionalString.pipe(
    z
      .string()
      .regex(/^[0-9]+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(min).max(max))
      .optional(),
  );

/** Accepts `https://a.example,http://localhost:5173`; each entry must be a bare origin. */
const chainIdList = optionalString.transform((value, ctx) => {
  const entries = (value ?? "1")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const ids = entries.map(Number);
  if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    ctx.addIssue({ code: "custom", message: "must be a comma list of chain ids such as 1,8453" });
  }
  return ids;
});

const originList = optionalString.transform((value, ctx) => {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim().replace(/\/$/, ""))
    .filter((entry) => entry.length > 0);
  for (const entry of entries) {
    if (!URL.canParse(entry) || new URL(entry).origin !== entry) {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not an origin like https://app.example.com` });
    }
  }
  return entries;
});

/**
 * A comma list of IP addresses or CIDR blocks (`10.0.0.0/8`, `fd00::/8`). Unlike other settings, an
 * empty value is not "unset" but an empty list (trust no proxy), as on the server.
 */
const proxyList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? "127.0.0.1,::1")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0);
    for (const entry of entries) {
      if (!isTrustedProxyEntry(entry)) {
        ctx.addIssue({ code: "custom", message: `"${entry}" is not an IP address or CIDR block` });
      }
    }
    return entries;
  });

/** Where the dashboard's build lands (packages/dashboard/dist), from src/ or dist/ alike. */
const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL("../../dashboard/dist", import.meta.url));

/** The schema of every setting the proxy reads; `parseEnv` applies it. */
export const envSchema = z
  .object({
    PORT: boundedInt(0, 65_535, 3001),
    /** Address to listen on; unset listens on every interface, as Node does. */
    HOST: optionalString,
    COINGECKO_API_KEY: optionalString,
    /** `demo`, `pro` or `enterprise`: the host, the key header, what the plan offers and how fresh prices stay. */
    COINGECKO_PLAN: optionalString.pipe(z.enum(["demo", "pro", "enterprise"]).default("demo")),
    /** `on`: one `/ping` to CoinGecko after listening, a warning naming the setting if it fails; `off` (tests). */
    COINGECKO_STARTUP_CHECK: optionalString.pipe(z.enum(["on", "off"]).default("on")),
    COINGECKO_BASE_URL: httpUrl,
    /** Upstream calls in any 60 s, across instances with REDIS_URL; default 30 on demo, 500 on paid plans. */
    COINGECKO_CALLS_PER_MINUTE: optionalInt(1, 1_000_000),
    /** Upstream calls per UTC calendar month; default 10,000 on demo, no cap on paid plans. */
    COINGECKO_CALLS_PER_MONTH: optionalInt(1, 1_000_000_000),
    /**
     * Upstream calls one client (an IPv4 address, an IPv6 /64) may cause a minute, across instances
     * with REDIS_URL; default a sixth of COINGECKO_CALLS_PER_MINUTE (5 on demo).
     */
    COINGECKO_CLIENT_CALLS_PER_MINUTE: optionalInt(1, 1_000_000),
    /** Shares the market cache, its loads, the upstream budget and the per-IP limit between instances. */
    REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
    /** Namespace of the proxy's keys in Redis. */
    REDIS_KEY_PREFIX: optionalString.pipe(z.string().default("keyport:proxy:")),
    AGENT_URL: httpUrl,
    AGENT_API_KEY: optionalString,
    ALLOWED_ORIGINS: originList,
    RATE_LIMIT_PER_MINUTE: boundedInt(1, 1_000_000_000, 600),
    UPSTREAM_TIMEOUT_MS: boundedInt(100, 120_000, 8_000),
    CHAT_HEADER_TIMEOUT_MS: boundedInt(100, 600_000, 30_000),
    /** How long the agent may be silent between events of an answer; past it the answer ends with an error event. */
    CHAT_IDLE_TIMEOUT_MS: boundedInt(100, 600_000, 60_000),
    /** `openai`: streaming chat completions (SSE, `[DONE]`); `text`: a plain streamed text body. */
    AGENT_PROTOCOL: optionalString.pipe(z.enum(["openai", "text"]).default("openai")),
    /** Sent as `model` to an OpenAI-style agent; omitted when unset. */
    AGENT_MODEL: optionalString,
    /** Sent first as a `system` message; browsers may send only user and assistant turns. */
    AGENT_SYSTEM_PROMPT: optionalString.pipe(z.string().max(32_000).optional()),
    /** `session`: chat needs a signed-in wallet and has a per-wallet limit; `public`: v0.1's rules. */
    CHAT_ACCESS: optionalString.pipe(z.enum(["session", "public"]).default("session")),
    CHAT_RATE_LIMIT_PER_MINUTE: boundedInt(1, 1_000_000, 20),
    /** Bearer token for `GET /metrics`; unset serves metrics to loopback callers only. */
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
    LOG_LEVEL: optionalString.pipe(
      z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ),
    /** Peers whose `X-Forwarded-For` names the client; the default trusts a proxy on this host. */
    TRUSTED_PROXIES: proxyList,
    /** Replaced by TRUSTED_PROXIES; refused so an old setting is not silently ignored. */
    TRUST_PROXY: optionalString,
    /** The Keyport server the `/trpc` forward and the session routes call. */
    KEYPORT_URL: httpUrl.pipe(z.string().default("http://127.0.0.1:3000")),
    /** The Keyport server's URL as your backends reach it, shown in the dashboard's new-key example; unset: KEYPORT_URL. */
    KEYPORT_PUBLIC_URL: httpUrl,
    KEYPORT_TIMEOUT_MS: boundedInt(100, 120_000, 10_000),
    /**
     * The chains the server's sign-in accepts (the server's own `SIWE_CHAIN_IDS`, default 1), so the
     * page can tell a wallet on another chain to switch before it signs, while the server's `GET /meta`
     * cannot be read (its `chainIds` win once it can).
     */
    SIWE_CHAIN_IDS: chainIdList,
    /** The origin browsers load the dashboard from; unset: `http://localhost:<PORT>`. */
    PUBLIC_ORIGIN: optionalString,
    /** The dashboard's built files, served at `/`. */
    DASHBOARD_DIR: optionalString,
  })
  .refine((env) => env.TRUST_PROXY === undefined, {
    path: ["TRUST_PROXY"],
    message: "is replaced by TRUSTED_PROXIES (addresses of proxies whose X-Forwarded-For is believed)",
  })
  .refine((env) => env.PUBLIC_ORIGIN === undefined || isOrigin(env.PUBLIC_ORIGIN), {
    path: ["PUBLIC_ORIGIN"],
    message: "must be an origin like https://keys.example.com (scheme, host and port only)",
  })
  .refine((env) => env.COINGECKO_PLAN === "demo" || env.COINGECKO_API_KEY !== undefined, {
    path: ["COINGECKO_API_KEY"],
    message: "is required when COINGECKO_PLAN is pro or enterprise",
  })
  .transform((env) => {
    const plan = COINGECKO_PLANS[env.COINGECKO_PLAN];
    const callsPerMinute = env.COINGECKO_CALLS_PER_MINUTE ?? (env.COINGECKO_PLAN === "demo" ? 30 : 500);
    const { TRUST_PROXY: _replaced, ...settings } = env;
    return {
      ...settings,
      KEYPORT_URL: env.KEYPORT_URL.replace(/\/+$/, ""),
      KEYPORT_PUBLIC_URL: (env.KEYPORT_PUBLIC_URL ?? env.KEYPORT_URL).replace(/\/+$/, ""),
      PUBLIC_ORIGIN: (env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
      DASHBOARD_DIR: env.DASHBOARD_DIR ?? DEFAULT_DASHBOARD_DIR,
      COINGECKO_BASE_URL: (env.COINGECKO_BASE_URL ?? plan.baseUrl).replace(/\/+$/, ""),
      COINGECKO_KEY_HEADER: plan.keyHeader,
      COINGECKO_CALLS_PER_MINUTE: callsPerMinute,
      COINGECKO_CLIENT_CALLS_PER_MINUTE:
        env.COINGECKO_CLIENT_CALLS_PER_MINUTE ?? Math.max(1, Math.floor(callsPerMinute / 6)),
      COINGECKO_CALLS_PER_MONTH:
        env.COINGECKO_CALLS_PER_MONTH ?? (env.COINGECKO_PLAN === "demo" ? 10_000 : undefined),
    };
  });

function isOrigin(value: string): boolean {
  const trimmed = value.replace(/\/$/, "");
  return (
    URL.canParse(trimmed) &&
    /^https?:$/.test(new URL(trimmed).protocol) &&
    new URL(trimmed).origin === trimmed
  );
}

/** Parsed, validated settings. */
export type Env = z.output<typeof envSchema>;
/** The raw settings record `parseEnv` accepts (all strings, all optional). */
export type EnvSource = Record<string, string | undefined>;

/** Thrown by `parseEnv` with one line per invalid setting (never the value, which may be a key). */
export class EnvError extends Error {
  override name = "EnvError";
}

/**
 * Validates settings from a plain record (usually `process.env`). Pure: tests pass their own record.
 * @throws EnvError naming each invalid variable and why.
 * @example parseEnv({ COINGECKO_API_KEY: "CG-...", ALLOWED_ORIGINS: "http://localhost:5173" })
 */
export function parseEnv(source: EnvSource): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new EnvError(`Invalid settings:\n${lines.join("\n")}`);
}

/** Reads the process environment; the only place in the proxy that touches `process.env`. */
export function loadEnv(): Env {
  return parseEnv(process.env);
}
