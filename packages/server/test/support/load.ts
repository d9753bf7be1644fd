import { Agent, request as httpRequest } from "node:http";

/** A parsed JSON answer. */
export interface JsonAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Keep-alive JSON POSTs over a bounded socket pool, for firing thousands of concurrent requests. */
export interface LoadClient {
  /** Resolves with the answer, or rejects if the connection failed before a full answer arrived. */
  post(path: string, body: unknown): Promise<JsonAnswer>;
  close(): void;
}

/**
 * A client for concurrency tests: node:http with a keep-alive agent of `maxSockets` connections, so
 * 5,000 requests in flight queue on the client instead of opening 5,000 sockets.
 */
export function createLoadClient(baseUrl: string, maxSockets = 64): LoadClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const url = new URL(baseUrl);
  return {
    post: (path, body) =>
      new Promise((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = httpRequest(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method: "POST",
            path,
            headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("error", reject);
            res.on("end", () => {
              if (!res.complete) {
                reject(new Error("response ended early"));
                return;
              }
              const text = Buffer.concat(chunks).toString("utf8");
              try {
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
              } catch (error) {
                reject(error);
              }
            });
          },
        );
        req.on("error", reject);
        req.end(payload);
      }),
    close: () => agent.destroy(),
  };
}
