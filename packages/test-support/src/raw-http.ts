import { request as httpRequest } from "node:http";
import { expect } from "vitest";

/** A response read byte for byte. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A request sent as given: the path is not parsed, folded or re-encoded on the way. */
export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends one request over a fresh node:http connection and reads the whole answer. */
export function sendRaw(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...req.headers };
  // node:http frames a GET or DELETE body only when told its length; unframed it would read as a new request.
  if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? "GET",
        path: req.path,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) headers[name] = String(value);
          resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(req.body);
  });
}

/**
 * No body may carry a stack frame (`at fn (/path/file.js:1:2)`, `at node:internal/...:1:2`: a path and a
 * line, so a sentence such as "expired at 2026-11-29T04:48:19.841Z" is not one), SQL, or a driver's error text.
 */
export const INTERNALS =
  /\bat [^\n]*?(?:\/|node:)[^\s()]*:\d+:\d+|node_modules|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|Failed query|DrizzleQueryError/i;

/**
 * The error contract of the server and the proxy: a 4xx or 5xx whose body is exactly the JSON error
 * envelope (`{ code, message }`, plus `issues` for validation errors), with no internals.
 */
export function expectErrorEnvelope(res: RawResponse): void {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(res.text);
  expect(body).toEqual({
    code: expect.stringMatching(/^[A-Z_]+$/),
    message: expect.any(String),
    ...(typeof body === "object" && body !== null && "issues" in body ? { issues: expect.any(Array) } : {}),
    // A 5xx names the request (its X-Request-Id), so a user's report finds the log lines.
    ...(res.status >= 500 ? { requestId: res.headers["x-request-id"] } : {}),
  });
  expect(res.text).not.toMatch(INTERNALS);
  // Nor an error's own text (`TypeError: ...`, h3's or a parser's), which the envelope replaces.
  expect(res.text).not.toMatch(/Error:/);
}
