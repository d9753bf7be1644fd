import type { IncomingMessage } from "node:http";
import { JSON_TOO_DEEP, jsonDeeperThan } from "@keyport/node-edge";
import { TRPCError } from "@trpc/server";

/** Largest request body any route accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

// Past this we stop draining an oversized body and drop the connection instead.
const MAX_DRAIN_BYTES = 1024 * 1024;

/** The message of a 413 on a route that takes at most `maxBytes`. */
export function bodyTooLargeMessage(maxBytes: number): string {
  return `The body must be at most ${maxBytes} bytes`;
}

/** The message of every 413 outside the leak routes (docs/decisions.md#the-servers-http-edge). */
export const BODY_TOO_LARGE = bodyTooLargeMessage(MAX_BODY_BYTES);

/**
 * The client went away (reset or closed the connection) before its request body ended: nobody is
 * left to answer, and nothing on our side failed. Logged as an abort at info, never as an error.
 */
export class RequestAbortedError extends Error {
  constructor() {
    super("The client closed the connection before its request body ended");
    this.name = "RequestAbortedError";
  }
}

/**
 * True when the request declares a `Content-Length` over `maxBytes` (default `MAX_BODY_BYTES`): it can
 * be refused with 413 before a byte of the body is read. (Node has already refused a malformed or
 * repeated length.)
 */
export function declaresTooLargeBody(req: IncomingMessage, maxBytes: number = MAX_BODY_BYTES): boolean {
  const length = req.headers["content-length"];
  return length !== undefined && Number(length) > maxBytes;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === "application/json") return true;
  if (value === undefined) return false;
  const mediaType = value.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/**
 * Reads and parses a JSON body: 415 for a body that is not `application/json`, 413 above
 * `MAX_BODY_BYTES` (at once when `Content-Length` says so), 400 (`PARSE_ERROR`) for malformed JSON,
 * 400 (`BAD_REQUEST`) for JSON nested deeper than `MAX_JSON_DEPTH` (@keyport/node-edge),
 * `RequestAbortedError` when the client leaves mid-body. An absent body reads as `undefined`.
 * Event-based rather than `for await`, because verify reads a tiny body on every request.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (!hasBody(req)) return Promise.resolve(undefined);
  if (!isJsonContentType(req.headers["content-type"])) {
    req.resume();
    return Promise.reject(
      new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: "The body must be application/json" }),
    );
  }
  if (declaresTooLargeBody(req)) {
    return Promise.reject(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: BODY_TOO_LARGE }));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // The listeners stay on the request (they go with it): once settled, later events do nothing.
    // Removing four listeners on every verification cost more than leaving them.
    const settle = (error: unknown, value?: unknown) => {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve(value);
      else reject(error);
    };
    const finish = () => {
      if (size > MAX_BODY_BYTES) {
        settle(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: BODY_TOO_LARGE }));
        return;
      }
      const text = chunks.length === 1 ? String(chunks[0]) : Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") {
        settle(undefined, undefined);
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        settle(new TRPCError({ code: "PARSE_ERROR", message: "The body is not valid JSON" }));
        return;
      }
      if (jsonDeeperThan(value)) settle(new TRPCError({ code: "BAD_REQUEST", message: JSON_TOO_DEEP }));
      else settle(undefined, value);
    };
    req.on("data", (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        finish();
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(buffer);
    });
    req.on("end", finish);
    // A reset mid-body surfaces as an ECONNRESET "aborted" error, then a close: either way the client left.
    // The request's `close` also follows every answered request: by then the body has settled, and
    // an error (its stack captured) is built only when it has not (docs/benchmarks.md).
    const left = () => {
      if (!settled) settle(new RequestAbortedError());
    };
    req.on("error", left);
    req.on("close", left);
  });
}
