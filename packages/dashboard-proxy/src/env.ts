import { z } from "zod";

/** CoinGecko's two hosts and the header each expects the key in. */
export const COINGECKO_PLANS = {
  demo: { baseUrl: "https://api.coingecko.com/api/v3", keyHeader: "x-cg-demo-api-key" },
  pro: { baseUrl: "https://pro-api.coingecko.com/api/v3", keyHeader: "x-cg-pro-api-key" },
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

/** Accepts `https://a.example,http://localhost:5173`; each entry must be a bare origin. */
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

/** The schema of every setting the proxy reads; `parseEnv` applies it. */
export const envSchema = z
  .object({
    PORT: boundedInt(0, 65_535, 3001),
    /** Address to listen on; unset listens on every interface, as Node does. */
    HOST: optionalString,
    COINGECKO_API_KEY: optionalString,
    COINGECKO_PLAN: optionalString.pipe(z.enum(["demo", "pro"]).default("demo")),
    COINGECKO_BASE_URL: httpUrl,
    AGENT_URL: httpUrl,
    AGENT_API_KEY: optionalString,
    ALLOWED_ORIGINS: originList,
    RATE_LIMIT_PER_MINUTE: boundedInt(1, 1_000_000_000, 600),
    UPSTREAM_TIMEOUT_MS: boundedInt(100, 120_000, 8_000),
    CHAT_HEADER_TIMEOUT_MS: boundedInt(100, 600_000, 30_000),
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
    TRUST_PROXY: optionalString.pipe(
      z
        .enum(["true", "false", "loopback"])
        .default("false")
        .transform((value) => (value === "loopback" ? value : value === "true")),
    ),
  })
  .refine((env) => env.COINGECKO_PLAN !== "pro" || env.COINGECKO_API_KEY !== undefined, {
    path: ["COINGECKO_API_KEY"],
    message: "is required when COINGECKO_PLAN=pro",
  })
  .transform((env) => {
    const plan = COINGECKO_PLANS[env.COINGECKO_PLAN];
    return {
      ...env,
      COINGECKO_BASE_URL: (env.COINGECKO_BASE_URL ?? plan.baseUrl).replace(/\/+$/, ""),
      COINGECKO_KEY_HEADER: plan.keyHeader,
    };
  });

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
