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
 * @example const input = schema.safeParse(await readJsonBody(req));
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    readJsonBodyBytes(req, (error, body) => {
      if (error !== undefined) {
        reject(error);
        return;
      }
      try {
        resolve(parseJsonBody(body));
      } catch (cause) {
        reject(cause);
      }
    });
  });
}

/**
 * The bytes of a JSON body, for {@link parseJsonBody}: `done` gets the error {@link readJsonBody}
 * would reject with, or the body (`undefined` when absent). A callback, not a Promise, because
 * verify reads a tiny body on every request; `done` runs once, possibly before this returns.
 */
export function readJsonBodyBytes(
  req: IncomingMessage,
  done: (error: unknown, body: Buffer | undefined) => void,
): void {
  if (!hasBody(req)) {
    done(undefined, undefined);
    return;
  }
  if (!isJsonContentType(req.headers["content-type"])) {
    req.resume();
    done(
      new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: "The body must be application/json" }),
      undefined,
    );
    return;
  }
  if (declaresTooLargeBody(req)) {
    done(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: BODY_TOO_LARGE }), undefined);
    return;
  }
  let chunks: Buffer[] | undefined;
  let first: Buffer | undefined;
  let size = 0;
  let settled = false;
  // The listeners stay on the request (they go with it): once settled, later events do nothing.
  // Removing them on every verification cost more than leaving them.
  const settle = (error: unknown, body: Buffer | undefined) => {
    if (settled) return;
    settled = true;
    done(error, body);
  };
  const finish = () => {
    if (size > MAX_BODY_BYTES)
      settle(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: BODY_TOO_LARGE }), undefined);
    else settle(undefined, chunks === undefined ? (first ?? EMPTY) : Buffer.concat(chunks));
  };
  req.on("data", (chunk: Buffer | string) => {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_DRAIN_BYTES) {
      req.destroy();
      finish();
      return;
    }
    if (size > MAX_BODY_BYTES) return;
    // A small body is one chunk: no array for it.
    if (first === undefined) first = buffer;
    else if (chunks === undefined) chunks = [first, buffer];
    else chunks.push(buffer);
  });
  req.on("end", finish);
  // A client that leaves mid-body ends the request with a `close` and no `end`. (No `error`
  // listener: node emits an aborted request's error only to listeners, and `close` follows it.)
  // The request's `close` also follows every answered request: by then the body has settled, and
  // an error (its stack captured) is built only when it has not (docs/benchmarks.md).
  req.on("close", () => {
    if (!settled) settle(new RequestAbortedError(), undefined);
  });
}

const EMPTY = Buffer.alloc(0);

/**
 * Parses what {@link readJsonBodyBytes} read: `undefined` for an absent or blank body, else the
 * JSON value; throws 400 `PARSE_ERROR` for malformed JSON and 400 `BAD_REQUEST` past `MAX_JSON_DEPTH`.
 */
export function parseJsonBody(body: Buffer | undefined): unknown {
  if (body === undefined) return undefined;
  const text = body.toString("utf8");
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TRPCError({ code: "PARSE_ERROR", message: "The body is not valid JSON" });
  }
  if (jsonDeeperThan(value)) throw new TRPCError({ code: "BAD_REQUEST", message: JSON_TOO_DEEP });
  return value;
}
