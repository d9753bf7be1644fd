import { createTRPCClient, type TRPCClient } from "@trpc/client";
import { type KeyportLinkOptions, keyportLinks } from "./links.js";
import { type KeyportSession, type SignInOptions, type SiweSigner, signIn } from "./sign-in.js";
import type { AppRouter } from "./types.js";

/** Options of `createKeyportClient`: those of `keyportLinks`. */
export type KeyportClientOptions = KeyportLinkOptions;

/** The sign-in method that sits beside the procedures on a Keyport client. */
export interface KeyportSignInMethod {
  /**
   * Signs in with Ethereum (see the standalone `signIn`) and keeps the session token, which every later call
   * of this client sends as `Authorization: Bearer`. Sign out with `client.auth.logout.mutate()`.
   */
  signIn(signer: SiweSigner, options: SignInOptions): Promise<KeyportSession>;
}

/**
 * tRPC's own client of the Keyport router (`client.keys.list.query(...)`; failures are `TRPCClientError`)
 * plus `signIn`. `getUntypedClient` and `createTRPCOptionsProxy` accept it as any `TRPCClient`.
 */
export type KeyportClient = TRPCClient<AppRouter> & KeyportSignInMethod;

/**
 * Creates the typed client of the Keyport server, for Node scripts and backends (a browser page goes through
 * the dashboard proxy, which keeps the token in a cookie: there, use `keyportLinks` with tRPC's client).
 * A token stored by `signIn` (or given as `token`) is sent first; without one, `getToken` is asked.
 * @example
 * const keyport = createKeyportClient({ url: "http://localhost:3000/trpc" });
 * await keyport.signIn({ account }, { chainId: 1, domain: "localhost", uri: "http://localhost/login" });
 * const { keys } = await keyport.keys.list.query({ wallet: account.address });
 */
export function createKeyportClient(options: KeyportClientOptions): KeyportClient {
  let stored: string | null = options.token ?? null;
  const trpc = createTRPCClient<AppRouter>({
    links: keyportLinks({
      url: options.url,
      fetch: options.fetch,
      getToken: async () => stored ?? (await options.getToken?.()),
    }),
  });
  const method: KeyportSignInMethod = {
    async signIn(signer, signInOptions) {
      const session = await signIn(trpc, signer, signInOptions);
      stored = session.token;
      return session;
    },
  };
  return withSignIn(trpc, method);
}

/**
 * Puts `signIn` in front of tRPC's client, a Proxy that answers every other property with a procedure path
 * (and tRPC's own symbols with its internals, so the result still works with tRPC's helpers). A Proxy's
 * static type is its target's, so the combined type is asserted here, once.
 */
function withSignIn(trpc: TRPCClient<AppRouter>, method: KeyportSignInMethod): KeyportClient {
  const combined = new Proxy(trpc, {
    get: (target, property, receiver) =>
      property === "signIn" ? method.signIn : Reflect.get(target, property, receiver),
  });
  return combined as KeyportClient;
}
