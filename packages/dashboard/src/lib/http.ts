import type { z } from "zod";

/** A non-2xx answer of one of the proxy's JSON routes; `message` is the envelope's, when it has one. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Fetches a same-origin JSON route and validates the answer with `schema`. Throws `HttpError` on a
 * non-2xx status and when the body is not what the schema says.
 */
export async function fetchJson<T extends z.ZodType>(
  path: string,
  schema: T,
  init: RequestInit = {},
): Promise<z.output<T>> {
  const response = await fetch(path, {
    ...init,
    credentials: "same-origin",
    headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) },
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok)
    throw new HttpError(response.status, envelopeMessage(body) ?? `Request failed (${response.status})`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(502, "The server's answer was not understood");
  return parsed.data;
}

function envelopeMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error = "error" in body ? body.error : body;
  if (
    typeof error === "object" &&
    error !== null &&
    "message" in error &&
    typeof error.message === "string"
  ) {
    return error.message;
  }
  return undefined;
}
