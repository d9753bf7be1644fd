import type { H3 } from "h3";
import type { ServerMeta } from "../upstream/keyport.js";

/** What the page needs to know about this proxy's setup. */
export interface MetaOptions {
  coingeckoPlan: "demo" | "pro" | "enterprise";
  chat: boolean;
  /** The Keyport server's URL for backends (`KEYPORT_PUBLIC_URL`), shown in the new-key example. */
  serverUrl: string;
  /** `PUBLIC_ORIGIN`: a page opened on another address names this one. */
  publicOrigin: string;
  /**
   * `SIWE_CHAIN_IDS`: the chains whose sign-in the server accepts (the page offers a switch to the
   * first), answered while the server's own `GET /meta` cannot be read; once it can, its `chainIds` win.
   */
  signInChainIds: readonly number[];
  /** The server's `GET /meta`, or undefined when it could not be read. */
  readServerMeta(): Promise<ServerMeta | undefined>;
}

/** Its path. */
export const META_PATH = "/api/meta";

/** How long the server's meta is kept: the server answers it `max-age=300`, fixed while it runs. */
const SERVER_META_TTL_MS = 300_000;

/**
 * Registers `GET /api/meta`: `{ coingeckoPlan, chat, serverUrl, publicOrigin, signInChainIds,
 * payments? }`, so the dashboard hides chart ranges the plan refuses, hides Chat when no agent is
 * configured, points its new-key example at the server this proxy uses, names its own address when
 * opened on another one, tells a wallet on another chain which chains sign in (the server's own
 * `chainIds`, or this proxy's `SIWE_CHAIN_IDS` while the server cannot be asked), and hides Top up while
 * the server's payments are off (`payments: null`; absent while the server cannot be asked, when the
 * page keeps Top up and lets the server's answer speak). Public: it holds no secret.
 */
export function registerMetaRoute(app: H3, options: MetaOptions): void {
  const own = {
    coingeckoPlan: options.coingeckoPlan,
    chat: options.chat,
    serverUrl: options.serverUrl,
    publicOrigin: options.publicOrigin,
  };
  type FromServer = { payments?: ServerMeta["payments"]; signInChainIds: readonly number[] };
  let kept: { answer: FromServer; until: number } | undefined;
  const fromServer = async (): Promise<FromServer> => {
    if (kept !== undefined && kept.until > Date.now()) return kept.answer;
    const meta = await options.readServerMeta();
    if (meta === undefined) return { signInChainIds: options.signInChainIds };
    const answer = { payments: meta.payments, signInChainIds: meta.chainIds };
    kept = { answer, until: Date.now() + SERVER_META_TTL_MS };
    return answer;
  };
  app.get(
    META_PATH,
    async () =>
      new Response(JSON.stringify({ ...own, ...(await fromServer()) }), {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      }),
  );
}
