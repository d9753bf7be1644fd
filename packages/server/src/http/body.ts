import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";

/** Largest request body any route accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

// Past this we stop draining an oversized body and drop the connection instead.
const MAX_DRAIN_BYTES = 1024 * 1024;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const mediaType = value.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/**
 * Reads and parses a JSON body: 415 for a body that is not `application/json`, 413 above
 * `MAX_BODY_BYTES`, 400 (`PARSE_ERROR`) for malformed JSON. An absent body reads as `undefined`.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  if (!isJsonContentType(req.headers["content-type"])) {
    req.resume();
    throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: "The body must be application/json" });
  }
  const declared = Number(req.headers["content-length"] ?? "0");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_DRAIN_BYTES) {
      req.destroy();
      break;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(buffer);
  }
  if (size > MAX_BODY_BYTES || declared > MAX_BODY_BYTES) {
    throw new TRPCError({
      code: "PAYLOAD_TOO_LARGE",
      message: `The body must be at most ${MAX_BODY_BYTES} bytes`,
    });
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new TRPCError({ code: "PARSE_ERROR", message: "The body is not valid JSON" });
  }
}
