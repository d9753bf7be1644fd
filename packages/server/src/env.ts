import { isTrustedProxyEntry } from "@keyport/node-edge";
import { getAddress } from "viem";
import { z } from "zod";
import { parseNonceRateLimit } from "./auth/nonce-limit.js";
import { normalisePublicUrl, publicUrlProblem } from "./http/public-url-setting.js";
import { paymentIssues, paymentSettings } from "./payments/settings-schema.js";
import { planId } from "./schemas/plans.js";

const commaList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    );

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The schema of every setting the server reads; `parseEnv` applies it. */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Address to listen on; unset listens on every interface (IPv6 and IPv4), as Node does. */
  HOST: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value)),
  /**
   * The server's address as its users reach it (behind TLS: `https://keyport.example.com`), for the
   * URLs it hands out: `topUpUrl`, a 402's x402 `resource`. Unset: `http://localhost:<PORT>`.
   */
  PUBLIC_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .superRefine((value, ctx) => {
      const problem = value === undefined ? null : publicUrlProblem(value);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    })
    .transform((value) => (value === undefined ? undefined : normalisePublicUrl(value))),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine(
      (value) => value === undefined || value === "memory:" || /^postgres(ql)?:\/\//.test(value),
      "must be unset, `memory:`, or a postgres:// / postgresql:// URL",
    ),
  DATA_DIR: z.string().min(1).default("./.data"),
  KEY_PREFIX: z
    .string()
    .default("kp")
    .refine((value) => /^[a-z0-9]{1,12}$/.test(value), "must be 1-12 characters of a-z and 0-9"),
  /** Hosts a SIWE message may name: by default the server itself and the dashboard on its default port. */
  SIWE_DOMAINS: commaList("localhost,localhost:3001").refine(
    (list) => list.length > 0,
    "needs at least one host[:port]",
  ),
  SIWE_CHAIN_IDS: commaList("1").pipe(
    z
      .array(
        z
          .string()
          .regex(/^[1-9][0-9]*$/, "chain ids must be positive integers")
          .transform(Number),
      )
      .min(1, "needs at least one chain id"),
  ),
  SESSION_TTL_SECONDS: positiveInt(86_400),
  /**
   * Sign-in nonces one client address (an IPv6 /64) may take: `<count>/<seconds>`, or `off`. Shared
   * across instances through Redis when REDIS_URL is set. Past it, `/auth/nonce` answers 429.
   */
  NONCE_RATE_LIMIT: z
    .string()
    .trim()
    .default("10/60")
    .transform((value, ctx) => {
      const rule = parseNonceRateLimit(value);
      if (rule !== undefined) return rule;
      ctx.addIssue({
        code: "custom",
        message: "must be <count>/<seconds> (e.g. 10/60, at most 86400 s) or off",
      });
      return z.NEVER;
    }),
  /** Pause between sweeps that delete expired and used nonces and ended sessions. */
  SWEEP_INTERVAL_MS: positiveInt(60_000),
  /**
   * Days the audit trail (GET /api-keys/:wallet/events) keeps an event; the sweep deletes older ones.
   * `off` keeps every event forever.
   */
  EVENTS_RETENTION_DAYS: z
    .string()
    .trim()
    .default("365")
    .transform((value, ctx) => {
      if (value === "off") return null;
      const days = /^\d{1,6}$/.test(value) ? Number(value) : 0;
      if (days >= 1) return days;
      ctx.addIssue({ code: "custom", message: "must be a whole number of days (at least 1) or off" });
      return z.NEVER;
    }),
  /**
   * Peers whose `X-Forwarded-For` names the client (addresses or CIDR blocks); empty trusts none.
   * The default trusts a proxy on the same host, such as the dashboard proxy.
   */
  TRUSTED_PROXIES: commaList("127.0.0.1,::1").pipe(
    z.array(z.string().refine(isTrustedProxyEntry, "entries must be IP addresses or CIDR blocks")),
  ),
  MAX_ACTIVE_KEYS_PER_WALLET: positiveInt(50),
  /**
   * A JSON file of plans (docs/plans.md#plans_file): validated and applied at each start (it wins over
   * the operator API, whose plan edits it refuses while set). Unset: plans live in the database only.
   */
  PLANS_FILE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value)),
  /** The plan of a wallet on no other (a free plan); unset: the file's `defaultPlan`, else `free`. */
  DEFAULT_PLAN: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(planId.optional()),
  /**
   * The operators' wallets (docs/operator.md): a SIWE session of one of them may use the operator API and
   * console. Any case; kept EIP-55 checksummed. Read at each request, so removing one ends its role at once.
   */
  OPERATOR_WALLETS: commaList("").pipe(
    z.array(
      z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, "entries must be EVM addresses: 0x followed by 40 hex characters")
        .transform((value) => getAddress(value.toLowerCase())),
    ),
  ),
  /**
   * The JSON-RPC node that checks contract wallets' signatures. Fully trusted: whatever it answers
   * decides who signs in as a contract wallet. `http://` only to a loopback host, unless RPC_ALLOW_HTTP.
   */
  RPC_URL: z
    .string()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** `true` lets RPC_URL be `http://` to a host that is not loopback (a private network's node). */
  RPC_ALLOW_HTTP: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  /**
   * Namespace of the rate-limit counters and credit balances in Redis (tests use one per run). No
   * `{` or `}`: the credits' keys carry a Redis Cluster hash tag (docs/decisions.md, Credits in Redis).
   */
  REDIS_KEY_PREFIX: z
    .string()
    .min(1)
    .refine((value) => !value.includes("{") && !value.includes("}"), "must not contain { or }")
    .default("keyport:rl:"),
  /** With REDIS_URL: pause between passes of the credits journal drainer (Redis to PostgreSQL). */
  CREDITS_DRAIN_INTERVAL_MS: positiveInt(200),
  USAGE_FLUSH_INTERVAL_MS: positiveInt(1_000),
  USAGE_RECORDING: z.enum(["on", "off"]).default("on"),
  KEY_CACHE_MAX: positiveInt(100_000),
  KEY_CACHE_TTL_MS: positiveInt(60_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * Where GitHub publishes the keys that sign its secret scanning reports (`POST /leaks/github`,
   * docs/leaks.md); fetched on first use and cached for an hour.
   */
  GITHUB_SECRET_SCANNING_KEYS_URL: z
    .string()
    .trim()
    .default("https://api.github.com/meta/public_keys/secret_scanning")
    .pipe(z.url({ protocol: /^https?$/ })),
  /** Where GitLab publishes the keys that sign its secret detection reports; unset: `POST /leaks/gitlab` is 501. */
  GITLAB_SECRET_DETECTION_KEYS_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** The token a self-managed GitLab sends to `/leaks/gitlab/v1/*` (its Token Revocation API); unset: 501. */
  LEAKS_GITLAB_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /** Bearer token for `GET /metrics`; unset serves metrics to loopback callers only. */
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /**
   * The key that encrypts webhook signing secrets at rest: 32 bytes, base64. Required with a
   * PostgreSQL DATABASE_URL; on the embedded database it is generated into DATA_DIR when unset
   * (for `memory:`, for the process's life). See docs/webhooks.md.
   */
  WEBHOOKS_ENCRYPTION_KEY: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine(
      (value) => value === undefined || Buffer.from(value, "base64").length === 32,
      "must be 32 bytes, base64-encoded (openssl rand -base64 32)",
    ),
  /** `true` lets webhook URLs be plain `http://` and reach private and loopback addresses (tests, private networks). */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  ...paymentSettings,
});

/** The settings with the rules that span several of them. */
const checkedEnvSchema = envSchema.superRefine((env, ctx) => {
  for (const issue of paymentIssues(env)) ctx.addIssue({ code: "custom", ...issue });
  if (env.WEBHOOKS_ENCRYPTION_KEY === undefined && env.DATABASE_URL?.startsWith("postgres") === true) {
    ctx.addIssue({
      code: "custom",
      path: ["WEBHOOKS_ENCRYPTION_KEY"],
      message: "is required with a PostgreSQL DATABASE_URL (32 bytes, base64: openssl rand -base64 32)",
    });
  }
  // Anyone on the path of a plain-HTTP node answers for it, and its answers sign people in.
  if (env.RPC_URL === undefined || env.RPC_ALLOW_HTTP || !env.RPC_URL.startsWith("http:")) return;
  if (isLoopbackHost(new URL(env.RPC_URL).hostname)) return;
  ctx.addIssue({
    code: "custom",
    path: ["RPC_URL"],
    message: "is http:// to a host that is not loopback: use https://, or set RPC_ALLOW_HTTP=true",
  });
});

/** `localhost`, 127.0.0.0/8 or `[::1]`, as a URL's hostname spells them. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** Parsed, validated settings. */
export type Env = z.infer<typeof envSchema>;

/** Thrown by `parseEnv` with one line per invalid setting. */
export class EnvError extends Error {
  override name = "EnvError";
}

/**
 * Validates settings from a plain record (usually `process.env`). Pure: tests pass their own record.
 * @throws EnvError naming each invalid variable and why.
 * @example parseEnv({ PORT: "8080", DATABASE_URL: "memory:" })
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = checkedEnvSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  return failWith(`Invalid settings:\n${lines.join("\n")}`);
}

function failWith(message: string): never {
  throw new EnvError(message);
}

/** Reads the process environment; the only place in the server that touches `process.env`. */
export function loadEnv(): Env {
  return parseEnv(process.env);
}
