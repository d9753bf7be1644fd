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
