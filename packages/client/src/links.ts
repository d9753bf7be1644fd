import { httpBatchLink, type TRPCLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "./types.js";

/**
 * The data transformer of the Keyport server (superjson: `Date`s stay `Date`s). A client built by hand must
 * use this one, since both ends must agree on it.
 */
export const transformer = superjson;

/**
 * The server's `maxBatchSize`: a batch of more calls is refused whole, so the link splits before that.
 */
export const MAX_BATCH_ITEMS = 10;

/** A session token, or nothing when signed out. */
export type TokenResult = string | null | undefined;

/** Options of `keyportLinks`. */
export interface KeyportLinkOptions {
  /** The server's tRPC endpoint, e.g. `http://localhost:3000/trpc` (or `/trpc` behind the dashboard proxy). */
  url: string;
  /** A session token, sent as `Authorization: Bearer` on every call. */
  token?: string;
  /** Asked for the token before each request when no `token` is given (e.g. read it from a secret store). */
  getToken?: () => TokenResult | Promise<TokenResult>;
  /** A fetch to use instead of the global one (e.g. to add `credentials`). */
  fetch?: typeof globalThis.fetch;
}

/**
 * The links of a Keyport tRPC client: one batching HTTP link with the server's transformer, at most
 * `MAX_BATCH_ITEMS` calls a batch, and the bearer token when there is one.
 * @example
 * const client = createTRPCClient<AppRouter>({ links: keyportLinks({ url: "/trpc" }) });
 * const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
 */
export function keyportLinks(options: KeyportLinkOptions): TRPCLink<AppRouter>[] {
  const { token, getToken } = options;
  return [
    httpBatchLink({
      url: options.url,
      transformer,
      maxItems: MAX_BATCH_ITEMS,
      fetch: options.fetch,
      headers: async () => {
        const current = token ?? (await getToken?.()) ?? null;
        return current === null ? {} : { authorization: `Bearer ${current}` };
      },
    }),
  ];
}
