/**
 * A URL as a log line may show it: scheme and host (with port) only, never the user, password, path
 * or query, where providers put their keys (`https://mainnet.infura.io/v3/<key>`,
 * `redis://:password@host`). Not a URL: `[not a URL]`, since the text may still be a secret.
 * @example redactUrl("postgres://app:pw@db.internal:5432/keyport?sslmode=require") // "postgres://db.internal:5432"
 */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return "[not a URL]";
  const parsed = new URL(url);
  // `host` is empty for some schemes' parsed forms (`memory:`): keep the scheme alone.
  return parsed.host === "" ? parsed.protocol : `${parsed.protocol}//${parsed.host}`;
}

// Anything that looks like `scheme://...` up to whitespace or a quote or bracket that ends it.
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
// What HTTP clients (viem, undici, fetch wrappers) append to an error's message: the request they
// sent, which may hold a signed payment or a key. Everything after the label to the end of its line.
const REQUEST_BODY = /\b(request body)\s*:\s*[^\n]*/gi;

/**
 * `text` with every URL in it reduced to scheme and host (`redactUrl`) and every "Request body: ..."
 * an HTTP client's error message carries dropped: the one redaction applied to every log line and
 * error message both servers print (docs/security.md, "Logs").
 * @example redactText("HTTP request failed. URL: https://rpc.example/v3/k Request body: {...}")
 *   // "HTTP request failed. URL: https://rpc.example Request body: [redacted]"
 */
export function redactText(text: string): string {
  if (!text.includes("://") && !/request body/i.test(text)) return text;
  return text
    .replace(URL_IN_TEXT, (url) => redactUrl(url.replace(/[.,;:)\]]+$/, "")) + trailing(url))
    .replace(REQUEST_BODY, "$1: [redacted]");
}

/** Punctuation the URL pattern swallowed from the sentence around it, given back after redaction. */
function trailing(url: string): string {
  return /[.,;:)\]]+$/.exec(url)?.[0] ?? "";
}
