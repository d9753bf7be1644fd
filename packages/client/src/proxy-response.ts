import {
  issuesFromZod,
  KeyportError,
  networkError,
  REQUEST_ID_HEADER,
  toKeyportError,
} from "@keyport/errors";
import type { z } from "zod";

/** A fetch as the dashboard client calls it. */
export type FetchFunction = typeof globalThis.fetch;

/** Sends a request, turning a failure to get any response into a KeyportError (aborts included). */
export async function send(fetchFn: FetchFunction, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchFn(url, init);
  } catch (error) {
    if (init.signal?.aborted) {
      throw new KeyportError({
        code: "CLIENT_CLOSED_REQUEST",
        status: 499,
        message: "The request was aborted",
        cause: error,
      });
    }
    throw networkError(error);
  }
}

/** The KeyportError for a non-2xx answer: the envelope's code and message, or the status alone. */
export async function errorFromResponse(response: Response): Promise<KeyportError> {
  const text = await response.text().catch(() => "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return toKeyportError(response.status, json, {
    fallbackMessage: `The proxy answered HTTP ${response.status}`,
    requestId: response.headers.get(REQUEST_ID_HEADER),
  });
}

/** Reads a 2xx JSON body through `schema`; an error status or an unexpected body becomes a KeyportError. */
export async function readJson<T extends z.ZodType>(response: Response, schema: T): Promise<z.output<T>> {
  if (!response.ok) throw await errorFromResponse(response);
  const body = schema.safeParse(await response.json().catch(() => undefined));
  if (!body.success) {
    throw new KeyportError({
      code: "BAD_GATEWAY",
      status: 502,
      message: "The proxy answered with a body of an unexpected shape",
      issues: issuesFromZod(body.error),
    });
  }
  return body.data;
}
