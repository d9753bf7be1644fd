import type { ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "@keyport/errors";

/**
 * The id of the request `res` answers: the handler sets `X-Request-Id` on every response before
 * routing (see http/handler.ts), so the header is the one place the id is kept and the one value a
 * 5xx body can carry. Undefined only for a response the handler never saw.
 */
export function requestIdOf(res: ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER);
  return typeof id === "string" ? id : undefined;
}
