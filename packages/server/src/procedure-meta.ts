import type { OperatorScope } from "./schemas/operator.js";

/** The HTTP methods the REST surface uses. */
export type RestMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A procedure's meta: how it appears in the OpenAPI document. The project's own type rather than
 * trpc-to-openapi's `OpenApiMeta`, so `AppRouter` names no server-only package; trpc-to-openapi
 * reads these fields by the same names. A type alias, not an interface, so it stays assignable to
 * the `Record<string, unknown>` meta that trpc-to-openapi's generator takes.
 */
export type ProcedureMeta = {
  openapi?: {
    method: RestMethod;
    path: `/${string}`;
    /** false for public operations (no session token). */
    protect: boolean;
    tags: string[];
    summary: string;
    description: string;
  };
};

/** Error statuses a route may answer beyond 400, 500 and 503, which every route can. */
export type ErrorStatus = 401 | 402 | 403 | 404 | 409 | 413 | 415 | 429 | 501;

/** How one procedure is served as REST: declared beside the procedure, read by the REST table and the OpenAPI document. */
export type HttpPolicy = HttpPolicyBase &
  (
    | {
        /** `session`: needs `Authorization: Bearer <session token>`. */
        security: "session" | "public";
      }
    | {
        /** An operator procedure (docs/operator.md): an operator session, or a token with `requires`. */
        security: "operator";
        /** The token scope it needs; `session`: an operator session only. */
        requires: OperatorScope | "session";
      }
  );

/** What every REST route declares, whoever may call it. */
interface HttpPolicyBase {
  method: RestMethod;
  /** The path template; `{name}` segments are input fields. */
  path: `/${string}`;
  /** 201 for routes that create something, 202 for one that accepts a report. */
  successStatus: 200 | 201 | 202;
  errors: readonly ErrorStatus[];
  /**
   * `no-store`: answers describe live state that no cache on the way may keep; `public, max-age=300`:
   * answers fixed for the process's life (the server's setup), which any cache may keep a while.
   */
  cacheControl?: "no-store" | "public, max-age=300";
}

/** A procedure's `meta.openapi` from its HTTP policy and its documentation. */
export function openApiMeta(
  policy: HttpPolicy,
  docs: { tags: string[]; summary: string; description: string },
): ProcedureMeta {
  return {
    openapi: { method: policy.method, path: policy.path, protect: policy.security !== "public", ...docs },
  };
}
