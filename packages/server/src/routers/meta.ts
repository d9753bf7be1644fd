import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { noInput } from "../schemas/common.js";
import { metaDescription } from "../schemas/descriptions/meta.js";
import { serverMeta } from "../schemas/meta.js";
import { publicProcedure } from "../trpc.js";

/** How `meta` is served as REST (see routers/rest.ts): public, and cacheable since it never changes while the server runs. */
export const metaHttp = {
  method: "GET",
  path: "/meta",
  successStatus: 200,
  errors: [],
  security: "public",
  cacheControl: "public, max-age=300",
} as const satisfies HttpPolicy;

/** `meta`: what a client may know about the server's setup before signing in (docs/api.md#meta). */
export const metaProcedure = publicProcedure
  .meta(
    openApiMeta(metaHttp, {
      tags: ["meta"],
      summary: "The server's public setup",
      description: metaDescription,
    }),
  )
  .input(noInput)
  .output(serverMeta)
  .query(({ ctx }) => ctx.meta);
