import type { H3 } from "h3";

/** What the page needs to know about this proxy's setup. */
export interface MetaOptions {
  coingeckoPlan: "demo" | "pro" | "enterprise";
  chat: boolean;
  /** The Keyport server's URL for backends (`KEYPORT_PUBLIC_URL`), shown in the new-key example. */
  serverUrl: string;
}

/** Its path. */
export const META_PATH = "/api/meta";

/**
 * Registers `GET /api/meta`: `{ coingeckoPlan, chat, serverUrl }`, so the dashboard hides chart ranges
 * the plan refuses, hides Chat when no agent is configured, and points its new-key example at the
 * server this proxy uses. Public: it holds no secret.
 */
export function registerMetaRoute(app: H3, options: MetaOptions): void {
  const body = JSON.stringify({
    coingeckoPlan: options.coingeckoPlan,
    chat: options.chat,
    serverUrl: options.serverUrl,
  });
  app.get(
    META_PATH,
    () =>
      new Response(body, {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      }),
  );
}
