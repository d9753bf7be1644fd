import { redactText } from "./redact-url.js";

/**
 * Field paths censored in every log line of both servers. Neither logs headers, bodies, keys or
 * settings on purpose: this is the second line of defence should someone add such a field later.
 */
const PATHS = [
  // Credentials in headers, as a request or response object or anywhere below a field.
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
  "*.headers.authorization",
  '*.headers["x-cg-demo-api-key"]',
  '*.headers["x-cg-pro-api-key"]',
  // An x402 payment is a bearer instrument until settled (docs/payments.md): whoever reads it can spend it.
  'req.headers["payment-signature"]',
  'req.headers["x-payment"]',
  '*.headers["payment-signature"]',
  '*.headers["x-payment"]',
  "payment",
  "*.payment",
  "authorization",
  "*.authorization",
  "cookie",
  // API keys, session tokens, signatures, secrets and the upstream keys the proxy holds.
  "key",
  "*.key",
  "apiKey",
  "*.apiKey",
  "token",
  "*.token",
  "signature",
  "*.signature",
  "secret",
  "*.secret",
  "COINGECKO_API_KEY",
  "*.COINGECKO_API_KEY",
  "AGENT_API_KEY",
  "*.AGENT_API_KEY",
  // Top-level only: `err.message` must stay readable. A SIWE message, procedure input or body.
  "message",
  "input",
  "body",
];

/**
 * pino's `redact` option for a Keyport server: the paths above, censored as `[redacted]`. `msg` (a
 * log line's text) is not redacted: never put a secret in it. A new object each call (pino keeps it).
 * @example pino({ level, redact: logRedaction() }, destination)
 */
export function logRedaction(): { paths: string[]; censor: string } {
  return { paths: [...PATHS], censor: "[redacted]" };
}

/** How deep `redactLogValue` looks into a logged object; below that a value is replaced, not printed. */
const MAX_DEPTH = 6;

/**
 * A logged value with `redactText` applied to every string in it (URLs down to scheme and host,
 * HTTP clients' request bodies dropped) and every Error reduced to its name, code and redacted
 * message: no stack, no properties a client attached (a request, its body, its URL). Returns the
 * value itself when nothing in it needed redacting.
 * @example redactLogValue({ err: new Error("GET https://u:p@h/x failed") }) // { err: { name: "Error", message: "GET https://h failed" } }
 */
export function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value instanceof Error) return errorSummary(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) {
    const items = value.map((item) => redactLogValue(item, depth + 1));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [field, child] of Object.entries(value)) {
    const redacted = redactLogValue(child, depth + 1);
    if (redacted === child) continue;
    copy ??= { ...value };
    copy[field] = redacted;
  }
  return copy ?? value;
}

/**
 * The name, code and message of the innermost error in a `cause` chain, the message redacted
 * (`redactText`), without the stack and the properties drivers and clients attach (postgres.js: the
 * query and its parameters; viem: the request): the only shape an error takes in a log line
 * (docs/security.md). Drizzle's wrapper repeats the SQL and its parameters in its message; should it
 * be the innermost, its message is replaced. A thrown non-Error is named, not printed.
 * @example errorSummary(new Error("a", { cause: new Error("b") })) // { name: "Error", message: "b" }
 */
export function errorSummary(error: unknown): { name: string; code?: string; message: string } {
  if (!(error instanceof Error)) return { name: "NonError", message: "a non-Error value was thrown" };
  let inner: Error = error;
  for (let depth = 0; depth < 5 && inner.cause instanceof Error; depth++) inner = inner.cause;
  const code: unknown = Reflect.get(inner, "code");
  return {
    name: inner.name,
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    message: QUOTES_SQL.test(inner.message) ? "a database query failed" : redactText(inner.message),
  };
}

// Drizzle's "Failed query: <statement>\nparams: <values>".
const QUOTES_SQL = /^Failed query|\bparams:/;

/** What pino passes a `logMethod` hook: the logger's own method, called with the (redacted) arguments. */
type LogMethod = (this: unknown, ...args: unknown[]) => void;

/**
 * pino's `hooks` for a Keyport server: every argument of every log call (the fields and the message
 * text) goes through `redactLogValue` first, so no URL setting's credentials, path or query and no
 * HTTP client's request body reaches a log line at any level (docs/security.md, "Logs").
 * @example pino({ level, redact: logRedaction(), hooks: logHooks() }, destination)
 */
export function logHooks(): { logMethod(this: unknown, args: unknown[], method: LogMethod): void } {
  return {
    logMethod(args, method) {
      method.apply(
        this,
        args.map((arg) => redactLogValue(arg)),
      );
    },
  };
}
