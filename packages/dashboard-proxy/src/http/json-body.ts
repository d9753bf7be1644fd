import { JSON_TOO_DEEP, jsonDeeperThan } from "@keyport/node-edge";
import type { ApiError } from "./errors.js";

/**
 * Parses a request body read as text: malformed JSON, or JSON nested deeper than `MAX_JSON_DEPTH`
 * (@keyport/node-edge; docs/decisions.md, "JSON depth"), is a 400 value for the route to answer.
 * @example const parsed = parseJsonBody(await event.req.text()); if (!parsed.ok) return errorResponse(parsed.error);
 */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; error: ApiError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: "BAD_REQUEST", message: "The body is not valid JSON" } };
  }
  if (jsonDeeperThan(value)) return { ok: false, error: { code: "BAD_REQUEST", message: JSON_TOO_DEEP } };
  return { ok: true, value };
}
