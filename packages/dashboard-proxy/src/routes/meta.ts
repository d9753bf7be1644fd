import type { H3 } from "h3";

/** What the page needs to know about this proxy's setup. */
export interface MetaOptions {
  coingeckoPlan: "demo" | "pro" | "enterprise";
  chat: boolean;
  /** The Keyport server's URL for backends (`KEYPORT_PUBLIC_URL`), shown in the new-key example. */
  serverUrl: string;
  /** `PUBLIC_ORIGIN`: a page opened on another address names this one. */
  publicOrigin: string;
  /** `SIWE_CHAIN_IDS`: the chains whose sign-in the server accepts (the page offers a switch to the first). */
  signInChainIds: readonly number[];
}

/** Its path. */
export const META_PATH = "/api/meta";

/**
 * Registers `GET /api/meta`: `{ coingeckoPlan, chat, serverUrl, publicOrigin, signInChainIds }`, so
 * the dashboard hides chart ranges the plan refuses, hides Chat when no agent is configured, points its
 * new-key example at the server this proxy uses, names its own address when opened on another one, and
 * tells a wallet on another chain which chains sign in. Public: it holds no secret.
 */
export function registerMetaRoute(app: H3, options: MetaOptions): void {
  const body = JSON.stringify({
    coingeckoPlan: options.coingeckoPlan,
    chat: options.chat,
    serverUrl: options.serverUrl,
    publicOrigin: options.publicOrigin,
    signInChainIds: options.signInChainIds,
  });
  app.get(
    META_PATH,
    () =>
      new Response(body, {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      }),
  );
}
