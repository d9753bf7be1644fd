import type { H3 } from "h3";

/** What the page needs to know about this proxy's setup. */
export interface MetaOptions {
  coingeckoPlan: "demo" | "pro" | "enterprise";
  chat: boolean;
}

/** Its path. */
export const META_PATH = "/api/meta";

/**
 * Registers `GET /api/meta`: `{ coingeckoPlan, chat }`, so the dashboard hides chart ranges the plan
 * refuses and hides Chat when no agent is configured. Public: it holds no secret.
 */
export function registerMetaRoute(app: H3, options: MetaOptions): void {
  const body = JSON.stringify({ coingeckoPlan: options.coingeckoPlan, chat: options.chat });
  app.get(
    META_PATH,
    () =>
      new Response(body, {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      }),
  );
}
