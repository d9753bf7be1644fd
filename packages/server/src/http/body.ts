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
  const declared = Number(req.headers["content-length"] ?? "0");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const settle = (error: unknown, value?: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (error === undefined) resolve(value);
      else reject(error);
    };
    const finish = () => {
      if (size > MAX_BODY_BYTES || declared > MAX_BODY_BYTES) {
        settle(
          new TRPCError({
            code: "PAYLOAD_TOO_LARGE",
            message: `The body must be at most ${MAX_BODY_BYTES} bytes`,
          }),
        );
        return;
      }
      const text = chunks.length === 1 ? String(chunks[0]) : Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") {
        settle(undefined, undefined);
        return;
      }
      try {
        settle(undefined, JSON.parse(text));
      } catch {
        settle(new TRPCError({ code: "PARSE_ERROR", message: "The body is not valid JSON" }));
      }
    };
    function onData(chunk: Buffer | string) {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        finish();
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(buffer);
    }
    function onEnd() {
      finish();
    }
    function onError(error: Error) {
      settle(error);
    }
    function onClose() {
      settle(new Error("request closed before its body ended"));
    }
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    req.once("close", onClose);
  });
}
