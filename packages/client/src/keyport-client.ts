import { KeyportError } from "@keyport/errors";
import {
  createTRPCClientProxy,
  httpBatchLink,
  type TRPCClient,
  type TRPCRequestOptions,
  TRPCUntypedClient,
} from "@trpc/client";
import superjson from "superjson";
import { buildSiweMessage, type SignInOptions, type SiweSigner, signerAddress, signWith } from "./sign-in.js";
import { fromTRPCError } from "./trpc-error.js";
import type { AppRouter, RouterOutputs } from "./types.js";

/** Options of `createKeyportClient`. */
export interface KeyportClientOptions {
  /** The server's tRPC endpoint, e.g. `http://localhost:3000/trpc`. */
  url: string;
  /** A session token to start with (from an earlier `signIn`). */
  token?: string;
  /** Asked for the token before each request when none is stored (e.g. read it from storage). */
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** A fetch to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
}

/** The session returned by `signIn`: `token` is the bearer secret, keep it private. */
export type KeyportSession = RouterOutputs["auth"]["verify"];

/** Sign-in helpers that sit beside the procedures on a Keyport client. */
export interface KeyportSessionMethods {
  /**
   * Signs in with Ethereum: fetches a nonce, builds the EIP-4361 message, signs it, verifies it with the
   * server and stores the session token, which every later call sends as `Authorization: Bearer`.
   */
  signIn(signer: SiweSigner, options: SignInOptions): Promise<KeyportSession>;
  /** Ends the session on the server (if any) and forgets the stored token. */
  signOut(): Promise<void>;
}

/** Every procedure of the server (`client.keys.list.query(...)`) plus `signIn` and `signOut`. */
export type KeyportClient = TRPCClient<AppRouter> & KeyportSessionMethods;

/** The untyped client with every rejection turned into a KeyportError. */
class KeyportUntypedClient extends TRPCUntypedClient<AppRouter> {
  override query(path: string, input?: unknown, opts?: TRPCRequestOptions): Promise<unknown> {
    return super.query(path, input, opts).catch((error: unknown) => Promise.reject(fromTRPCError(error)));
  }

  override mutation(path: string, input?: unknown, opts?: TRPCRequestOptions): Promise<unknown> {
    return super.mutation(path, input, opts).catch((error: unknown) => Promise.reject(fromTRPCError(error)));
  }
}

/**
 * Creates the typed client of the Keyport server (tRPC, batched, superjson). Every failure is a KeyportError.
 * A token stored by `signIn` (or given as `token`) is sent first; without one, `getToken` is asked.
 * @example
 * const keyport = createKeyportClient({ url: "http://localhost:3000/trpc" });
 * await keyport.signIn({ account }, { chainId: 1, domain: "localhost", uri: "http://localhost/login" });
 * const { keys } = await keyport.keys.list.query({ wallet: account.address });
 */
export function createKeyportClient(options: KeyportClientOptions): KeyportClient {
  let stored: string | null = options.token ?? null;
  const currentToken = async () => stored ?? (await options.getToken?.()) ?? null;

  const untyped = new KeyportUntypedClient({
    links: [
      httpBatchLink({
        url: options.url,
        transformer: superjson,
        fetch: options.fetch,
        headers: async () => {
          const token = await currentToken();
          return token === null ? {} : { authorization: `Bearer ${token}` };
        },
      }),
    ],
  });
  const trpc = createTRPCClientProxy<AppRouter>(untyped);

  const session: KeyportSessionMethods = {
    async signIn(signer, signInOptions) {
      const address = signerAddress(signer);
      const { nonce } = await trpc.auth.nonce.mutate();
      const message = buildSiweMessage(address, nonce, signInOptions);
      const signature = await signWith(signer, message);
      const result = await trpc.auth.verify.mutate({ message, signature });
      stored = result.token;
      return result;
    },
    async signOut() {
      try {
        if ((await currentToken()) !== null) await trpc.auth.logout.mutate();
      } catch (error) {
        // A session that already expired or was revoked is as signed out as it gets.
        if (!(error instanceof KeyportError && error.code === "UNAUTHORIZED")) throw error;
      } finally {
        stored = null;
      }
    },
  };
  return withSessionMethods(trpc, session);
}

/**
 * Puts the session methods in front of the tRPC proxy, which answers every other property with a procedure
 * path. A Proxy's static type is its target's, so the combined type is asserted here, once.
 */
function withSessionMethods(trpc: TRPCClient<AppRouter>, session: KeyportSessionMethods): KeyportClient {
  const combined = new Proxy(trpc, {
    get: (target, property, receiver) =>
      Object.hasOwn(session, property)
        ? Reflect.get(session, property)
        : Reflect.get(target, property, receiver),
  });
  return combined as KeyportClient;
}
