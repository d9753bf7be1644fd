/**
 * The procedures a browser may call through the proxy's `/trpc`. Never `auth.verify` (its answer
 * holds the token, which only `/api/session` may see), `auth.logout` (`DELETE /api/session` ends a
 * session and clears the cookie) or `keys.verify` (a backend's call, with the key's own secret).
 */
export const FORWARDED_PROCEDURES: ReadonlySet<string> = new Set([
  "auth.nonce",
  "auth.session",
  "keys.list",
  "keys.create",
  "keys.revoke",
  "keys.roll",
  "keys.update",
  "usage.get",
  "limits.get",
  "limits.set",
  "events.list",
]);

/** Why a `/trpc` path is refused, or the procedures it names. */
export type ProcedurePath =
  | { ok: true; procedures: string[] }
  | { ok: false; reason: "encoded" | "not_allowed" };

/**
 * Reads a `/trpc/<path>` as tRPC does: the path after the prefix, split on `,` for a batch. A `%` is
 * refused outright: tRPC decodes the path, so `auth%2Everify` would name a procedure the allow-list
 * never saw. Every procedure of a batch must be allowed.
 * @example readProcedurePath("keys.list,usage.get") // { ok: true, procedures: ["keys.list", "usage.get"] }
 */
export function readProcedurePath(path: string): ProcedurePath {
  if (path.includes("%")) return { ok: false, reason: "encoded" };
  const procedures = path.split(",");
  if (!procedures.every((name) => FORWARDED_PROCEDURES.has(name)))
    return { ok: false, reason: "not_allowed" };
  return { ok: true, procedures };
}
