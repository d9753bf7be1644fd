import { z } from "zod";

// Errors reach the page from two clients (tRPC's `TRPCClientError` with `data.httpStatus`, and
// @keyport/client's `KeyportError` with `status`) and from our own fetches: read them by shape,
// validated, so the page does not depend on which class a library picked.
const withStatus = z.object({ status: z.number() });
const withTrpcData = z.object({ data: z.object({ httpStatus: z.number() }).nullish() });
const withMessage = z.object({ message: z.string() });

/** The HTTP status behind an error, or undefined when no answer arrived (network down) or it is unknown. */
export function errorStatus(error: unknown): number | undefined {
  const trpc = withTrpcData.safeParse(error);
  if (trpc.success && trpc.data.data) return trpc.data.data.httpStatus;
  const plain = withStatus.safeParse(error);
  if (plain.success && plain.data.status > 0) return plain.data.status;
  return undefined;
}

/** True when the error means "signed out": the session cookie is missing, expired or ended. */
export function isUnauthorized(error: unknown): boolean {
  return errorStatus(error) === 401;
}

/** The service behind a request, named in its error: the page talks to three through the proxy. */
export type Service = "keyport" | "market" | "agent";

/** How a sentence names each service. */
export const SERVICE_NAMES: Record<Service, string> = {
  keyport: "The Keyport server",
  market: "The market data provider (CoinGecko)",
  agent: "The chat agent",
};

/** What a view says of a call its ended session refused. */
export const SESSION_ENDED = "Your session ended: sign in again to carry on.";

/**
 * A sentence for the user that names the service that failed (`service`, the Keyport server unless
 * said). Server-side failures never show their details (there are none to show: a 5xx says only
 * "Internal server error"); a missing answer says where to look.
 */
export function describeError(error: unknown, service: Service = "keyport"): string {
  const status = errorStatus(error);
  const name = SERVICE_NAMES[service];
  if (status === undefined) {
    return "Cannot reach Keyport. Check that the dashboard proxy and the server are running, then try again.";
  }
  if (status === 504) return `${name} did not answer in time. Try again in a moment.`;
  if (status === 502 || status === 503) return `${name} is not answering right now. Try again in a moment.`;
  const message = withMessage.safeParse(error);
  // A 501 is a choice of the server's operator, and its envelope says which ("Payments are off on this server").
  if (status === 501 && message.success && message.data.message !== "") return message.data.message;
  if (status >= 500) return `${name} failed (internal server error). Try again later.`;
  if (status === 429) return "Too many requests. Wait a moment and try again.";
  // The page asks to sign in again over the view (SessionEndedDialog): the server's own words for the
  // missing token ("A valid session token is required") would only confuse what lies behind it.
  if (status === 401) return SESSION_ENDED;
  return message.success && message.data.message !== ""
    ? message.data.message
    : `Request failed (${status}).`;
}
