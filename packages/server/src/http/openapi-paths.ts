import type { OpenAPIObject } from "trpc-to-openapi";

type PathItem = NonNullable<OpenAPIObject["paths"]>[string];

/** The one path item that documents `GET /api-keys/{wallet}` and `PATCH`/`DELETE /api-keys/{id}`. */
export const WALLET_OR_ID_PATH = "/api-keys/{walletOrId}";

const WALLET_OR_ID = "walletOrId";

/** The operations an OpenAPI path item can hold that the REST table uses. */
export const OPERATION_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

/** The methods that read the merged segment as a key id (every operation of `/api-keys/{id}`). */
const ID_METHODS = ["patch", "delete"] as const;

// OpenAPI treats templates that differ only in parameter names as the same path, so the seed routes
// cannot each have their own path item (Redocly: no-identical-paths). Every real path keeps working;
// the document describes them as one path item whose parameter each method reads its way.
const SHARED =
  "OpenAPI counts `/api-keys/{wallet}` and `/api-keys/{id}` as one path, so GET, PATCH and DELETE share this parameter.";
const PARAMETER_DESCRIPTION: Record<"get" | (typeof ID_METHODS)[number], string> = {
  get: `GET reads this segment as a wallet (EVM address, any case) and lists its keys. ${SHARED}`,
  patch: `PATCH reads this segment as a key id (\`key_\` + 16-64 base62 characters) and updates that key. ${SHARED}`,
  delete: `DELETE reads this segment as a key id (\`key_\` + 16-64 base62 characters) and revokes that key. ${SHARED}`,
};

/** Renames an operation's path parameter `from` to `walletOrId`, with the description above. */
function renameParameter(item: PathItem, method: "get" | (typeof ID_METHODS)[number], from: string): void {
  const operation = item[method];
  if (!operation) throw new Error(`OpenAPI: no ${method.toUpperCase()} to merge into ${WALLET_OR_ID_PATH}`);
  for (const parameter of operation.parameters ?? []) {
    if ("in" in parameter && parameter.in === "path" && parameter.name === from) {
      parameter.name = WALLET_OR_ID;
      parameter.description = PARAMETER_DESCRIPTION[method];
    }
  }
}

/**
 * Replaces the path items `/api-keys/{wallet}` (GET: list) and `/api-keys/{id}` (PATCH: update,
 * DELETE: revoke) with one `/api-keys/{walletOrId}` holding all three operations, in the first one's
 * place. Any other operation on either path fails here, at start, rather than being dropped.
 */
export function mergeWalletOrIdPaths(document: OpenAPIObject): void {
  const paths = document.paths ?? {};
  const list = paths["/api-keys/{wallet}"];
  const byId = paths["/api-keys/{id}"];
  if (!list?.get || !byId?.patch || !byId.delete) {
    throw new Error("OpenAPI: the list, update and revoke operations are missing");
  }
  for (const method of OPERATION_METHODS) {
    if ((method !== "get" && list[method]) || (method !== "patch" && method !== "delete" && byId[method])) {
      throw new Error(`OpenAPI: ${method.toUpperCase()} cannot be merged into ${WALLET_OR_ID_PATH}`);
    }
  }
  const merged: PathItem = { get: list.get, patch: byId.patch, delete: byId.delete };
  renameParameter(merged, "get", "wallet");
  for (const method of ID_METHODS) renameParameter(merged, method, "id");
  document.paths = Object.fromEntries(
    Object.entries(paths).flatMap(([path, item]): [string, PathItem][] => {
      if (path === "/api-keys/{wallet}") return [[WALLET_OR_ID_PATH, merged]];
      return path === "/api-keys/{id}" ? [] : [[path, item]];
    }),
  );
}
