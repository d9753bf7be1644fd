import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { acceptRequestId, REQUEST_ID_HEADER } from "@keyport/errors";
import type { RawResponse } from "@keyport/test-support/raw-http";
import { createTrpcHandler } from "../../src/http/trpc-handler.js";
import { appRouter } from "../../src/routers/_app.js";
import type { TestServer } from "./server.js";

// The tRPC keys.verify fast path (docs/decisions.md, "tRPC verify fast path") against tRPC's own handler
// over the same router and services on another port: the reference its answers must equal.

/** Headers that frame the bytes (length or chunks) or the connection, not the answer. */
const FRAMING = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

export function answerOf(response: RawResponse) {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !FRAMING.has(name)));
  return { status: response.status, headers, body: response.text };
}

/** tRPC's handler alone, with the request id the app's handler sets first (http/handler.ts). */
export async function startReference(
  server: TestServer,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const trpc = createTrpcHandler(appRouter, server.app.services);
  const reference: Server = createServer((req, res) => {
    res.setHeader(REQUEST_ID_HEADER, acceptRequestId(req.headers[REQUEST_ID_HEADER]));
    trpc(req, res);
  });
  await new Promise<void>((resolve) => reference.listen(0, "127.0.0.1", resolve));
  const { port } = reference.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => reference.close(() => resolve())),
  };
}
