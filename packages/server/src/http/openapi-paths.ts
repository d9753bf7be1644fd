import type { OpenAPIObject } from "trpc-to-openapi";

type PathItem = NonNullable<OpenAPIObject["paths"]>[string];

/** The one path item that documents `GET /api-keys/{wallet}` and `DELETE /api-keys/{id}`. */
export const WALLET_OR_ID_PATH = "/api-keys/{walletOrId}";

const WALLET_OR_ID = "walletOrId";

// OpenAPI treats templates that differ only in parameter names as the same path, so the two seed
// routes cannot each have their own path item (Redocly: no-identical-paths). Both real paths keep
// working; the document describes them as one path item whose parameter each method reads its way.
const PARAMETER_DESCRIPTION: Record<"get" | "delete", string> = {
  get: "GET reads this segment as a wallet (EVM address, any case) and lists its keys. The same path item also serves DELETE, which reads it as a key id: OpenAPI counts `/api-keys/{wallet}` and `/api-keys/{id}` as one path, so they share this parameter.",
  delete:
    "DELETE reads this segment as a key id (`key_` + 16-64 base62 characters) and revokes that key. The same path item also serves GET, which reads it as a wallet: OpenAPI counts `/api-keys/{wallet}` and `/api-keys/{id}` as one path, so they share this parameter.",
};

/** Renames an operation's path parameter `from` to `walletOrId`, with the description above. */
function renameParameter(item: PathItem, method: "get" | "delete", from: string): void {
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
 * Replaces the path items `/api-keys/{wallet}` (GET: list) and `/api-keys/{id}` (DELETE: revoke)
 * with one `/api-keys/{walletOrId}` holding both operations, in the first one's place.
 */
export function mergeWalletOrIdPaths(document: OpenAPIObject): void {
  const paths = document.paths ?? {};
  const list = paths["/api-keys/{wallet}"];
  const revoke = paths["/api-keys/{id}"];
  if (!list?.get || !revoke?.delete) throw new Error("OpenAPI: the list and revoke operations are missing");
  const merged: PathItem = { get: list.get, delete: revoke.delete };
  renameParameter(merged, "get", "wallet");
  renameParameter(merged, "delete", "id");
  document.paths = Object.fromEntries(
    Object.entries(paths).flatMap(([path, item]): [string, PathItem][] => {
      if (path === "/api-keys/{wallet}") return [[WALLET_OR_ID_PATH, merged]];
      return path === "/api-keys/{id}" ? [] : [[path, item]];
    }),
  );
}
