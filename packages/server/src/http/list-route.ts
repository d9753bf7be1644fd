import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import { type ProcedureServices, readBearerToken } from "../context.js";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.js";
import { REQUEST_DEADLINE_MS, withDeadline } from "../deadline.js";
import { keysHttp } from "../routers/keys.js";
import type { RestRoute } from "../routers/rest.js";
import { listKeysInput, type listKeysOutput } from "../schemas/api-key.js";
import { type CompiledRestRoute, readQueryInput } from "./rest.js";

/** Whether a REST route is `GET /api-keys/{wallet}`, the one {@link listOwnKeys} may answer. */
export function isListRoute(route: RestRoute): boolean {
  return route.method === keysHttp.list.method && route.path === keysHttp.list.path;
}

/**
 * `GET /api-keys/{wallet}` of the session's own wallet, first page, in one round trip: the session
 * check and the list are one statement (keys/session-first-page.ts), where `keys.list` makes two.
 * Null for every other case (no token, invalid input, a cursor, a search or a sort other than
 * newest first, a session that is not the
 * wallet's, no keys to show): the caller then runs `keys.list`, whose statuses and envelope say
 * why. The answer is built as `keys.list` builds it, from the same typed rows and `toApiKey`, and
 * is not parsed again by `listKeysOutput` (docs/benchmarks.md#keys-list-in-one-round-trip).
 */
export async function listOwnKeys(
  compiled: CompiledRestRoute,
  req: IncomingMessage,
  url: URL,
  params: Record<string, string>,
  services: Pick<ProcedureServices, "keys" | "plans">,
): Promise<z.output<typeof listKeysOutput> | null> {
  const sessionToken = readBearerToken(req);
  if (sessionToken === null) return null;
  const input = listKeysInput.safeParse(readQueryInput(compiled, url, params));
  if (!input.success) return null;
  const { wallet, status, limit, cursor, q, sort, order } = input.data;
  if (cursor !== undefined || (q !== undefined && q !== "") || sort !== "created" || order !== "desc")
    return null;
  try {
    const now = new Date();
    // The wallet's plan sets the cap (docs/plans.md#bounds): read beside the page, not after it.
    const [page, plan] = await withDeadline(REQUEST_DEADLINE_MS, () =>
      Promise.all([
        services.keys.listFirstPageOfSession({ sessionToken, wallet, status, limit, now }),
        services.plans.ofWallet(wallet, now),
      ]),
    );
    return page === null
      ? null
      : { ...page, activeKeyCap: plan.row.maxActiveKeys ?? services.keys.maxActiveKeys };
  } catch (cause) {
    // As `publicProcedure` answers an unreachable database: 503, retry.
    if (!isDatabaseUnavailable(cause)) throw cause;
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE, cause });
  }
}
