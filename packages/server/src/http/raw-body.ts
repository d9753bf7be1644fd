import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";
import { bodyTooLargeMessage, RequestAbortedError } from "./body.js";

/**
 * Reads a request body as bytes, once: 413 past `maxBytes` (the rest is drained unread up to twice
 * that, then the connection is dropped), `RequestAbortedError` when the client leaves mid-body. An
 * absent body is empty.
 * @example const body = await readRawBody(req, 2 * 1024 * 1024); verify(signature, body); JSON.parse(body.toString("utf8"));
 */
export function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: unknown, value?: Buffer) => {
      if (settled) return;
      settled = true;
      if (error === undefined && value !== undefined) resolve(value);
      else reject(error);
    };
    req.on("data", (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) {
        settle(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: bodyTooLargeMessage(maxBytes) }));
        if (size > 2 * maxBytes) req.destroy();
        return;
      }
      chunks.push(buffer);
    });
    req.on("end", () => settle(undefined, Buffer.concat(chunks)));
    const left = () => settle(new RequestAbortedError());
    req.on("error", left);
    req.on("close", left);
  });
}
