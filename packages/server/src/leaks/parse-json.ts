import { JSON_TOO_DEEP, jsonDeeperThan } from "@keyport/node-edge";
import { TRPCError } from "@trpc/server";
import type { z } from "zod";

/**
 * Parses a raw body as JSON and checks it against `schema`: 400 (`PARSE_ERROR`) for malformed JSON,
 * 400 for JSON nested too deep, 400 with `issues` when it does not match.
 */
export function parseJsonBody<S extends z.ZodType>(body: Buffer, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new TRPCError({ code: "PARSE_ERROR", message: "The body is not valid JSON" });
  }
  if (jsonDeeperThan(value)) throw new TRPCError({ code: "BAD_REQUEST", message: JSON_TOO_DEEP });
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new TRPCError({ code: "BAD_REQUEST", message: "Invalid report", cause: parsed.error });
  return parsed.data;
}
