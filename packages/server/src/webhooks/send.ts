import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { type ResolvedAddress, type ResolveHost, resolveSendTarget } from "./send-address.js";

/** How one attempt ended, as the delivery log shows it. */
export interface AttemptResult {
  /** The answer's HTTP status; null when none came. */
  statusCode: number | null;
  durationMs: number;
  /** The first KiB of the answer's body, or why no answer came ("timeout", "connection refused", ...). */
  response: string | null;
}

export interface SendOptions {
  /** Everything (resolving, connecting, the answer's status and body) must fit in this. */
  timeoutMs: number;
  allowPrivate: boolean;
  resolve: ResolveHost;
  /** Read at most this much of the answer's body, then drop the connection. */
  maxBodyBytes?: number;
  /** Keep this much of it for the delivery log. */
  keptBytes?: number;
}

/**
 * POSTs `body` to `url` once, with node:http(s) rather than fetch so that nothing is followed (a
 * 3xx is an answer, and a failure), the whole attempt has one deadline, the body read is bounded,
 * and the connection goes to the address the send-time check approved (a `lookup` that answers
 * only those), never to a second DNS answer. Never throws: every failure is a result.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const parsed = new URL(url);
    const target = await Promise.race([
      resolveSendTarget(parsed, options.allowPrivate, options.resolve),
      aborted(controller.signal),
    ]);
    if (target === "aborted") return { statusCode: null, durationMs: elapsed(), response: "timeout" };
    if (!target.ok) return { statusCode: null, durationMs: elapsed(), response: target.reason };
    const answer = await post(parsed, headers, body, target.addresses, controller.signal, options);
    return { ...answer, durationMs: elapsed() };
  } catch (error) {
    return { statusCode: null, durationMs: elapsed(), response: failureReason(error, controller.signal) };
  } finally {
    clearTimeout(timer);
  }
}

function aborted(signal: AbortSignal): Promise<"aborted"> {
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve("aborted"), { once: true }));
}

function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const first = addresses[0];
    if (lookupOptions.all === true) callback(null, addresses);
    else if (first !== undefined) callback(null, first.address, first.family);
    else callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "", 0);
  };
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  addresses: ResolvedAddress[],
  signal: AbortSignal,
  options: SendOptions,
): Promise<Omit<AttemptResult, "durationMs">> {
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const keptBytes = options.keptBytes ?? 1024;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(addresses),
      // A fresh connection each attempt: a pooled one may have been opened to an address checked earlier.
      agent: false,
      signal,
    });
    req.once("error", reject);
    req.once("response", (res: IncomingMessage) => {
      const statusCode = res.statusCode ?? null;
      const kept: Buffer[] = [];
      let keptLength = 0;
      let read = 0;
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        const text = Buffer.concat(kept).toString("utf8").replaceAll("\u0000", "");
        resolve({ statusCode, response: text });
      };
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (keptLength < keptBytes) {
          const part = chunk.subarray(0, keptBytes - keptLength);
          kept.push(part);
          keptLength += part.length;
        }
        // Enough: the rest is never read (a receiver cannot make us hold or download megabytes).
        if (read >= maxBodyBytes) {
          finish();
          res.destroy();
        }
      });
      res.once("end", finish);
      // The deadline or a reset mid-body: the status already decided the attempt.
      res.once("error", finish);
      res.once("close", finish);
    });
    req.end(body);
  });
}

/** Why no answer came, in words for the delivery log: never an error's own message (it may carry internals). */
function failureReason(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "timeout";
  const code = error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ETIMEDOUT") return "timeout";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "host unreachable";
  if (/CERT|TLS|SSL|SELF_SIGNED/.test(code)) return "TLS error";
  return "connection failed";
}
