import type { OpenAPIObject } from "trpc-to-openapi";

type PathItem = NonNullable<OpenAPIObject["paths"]>[string];
type Operation = NonNullable<PathItem["get"]>;
type Parameter = NonNullable<Operation["parameters"]>[number];

/** The one path item that documents `GET /api-keys/{wallet}`, `GET`/`PATCH`/`DELETE /api-keys/{id}`. */
export const WALLET_OR_ID_PATH = "/api-keys/{walletOrId}";

const WALLET_OR_ID = "walletOrId";

/** The operations an OpenAPI path item can hold that the REST table uses. */
export const OPERATION_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

/** The methods that read the merged segment as a key id alone. */
const ID_METHODS = ["patch", "delete"] as const;

// OpenAPI treats templates that differ only in parameter names as the same path, so the seed routes
// cannot each have their own path item (Redocly: no-identical-paths), and a path item holds one GET.
// Every real path keeps working (http/rest.ts picks the route by the segment); the document describes
// them as one path item whose parameter each method reads its way, and one GET for both reads.
const SHARED =
  "OpenAPI counts `/api-keys/{wallet}` and `/api-keys/{id}` as one path, so GET, PATCH and DELETE share this parameter.";
const PARAMETER_DESCRIPTION: Record<"get" | (typeof ID_METHODS)[number], string> = {
  get: `GET reads this segment as a key id (\`key_\` + 16-64 base62 characters) and answers that key, or else as a wallet (EVM address, any case) and lists its keys. ${SHARED}`,
  patch: `PATCH reads this segment as a key id (\`key_\` + 16-64 base62 characters) and updates that key. ${SHARED}`,
  delete: `DELETE reads this segment as a key id (\`key_\` + 16-64 base62 characters) and revokes that key. ${SHARED}`,
};

const LIST_ONLY = "Listing only (a wallet in the path); ignored for a key id.";

function isPathParameter(parameter: Parameter): boolean {
  return "in" in parameter && parameter.in === "path";
}

/** Renames an operation's path parameter `from` to `walletOrId`, with the description above. */
function renameParameter(item: PathItem, method: "get" | (typeof ID_METHODS)[number], from: string): void {
  const operation = item[method];
  if (!operation) throw new Error(`OpenAPI: no ${method.toUpperCase()} to merge into ${WALLET_OR_ID_PATH}`);
  for (const parameter of operation.parameters ?? []) {
    if (isPathParameter(parameter) && "name" in parameter && parameter.name === from) {
      parameter.name = WALLET_OR_ID;
      parameter.description = PARAMETER_DESCRIPTION[method];
    }
  }
}

/** The JSON schema of an operation's success answer (the only 2xx it documents). */
function successSchema(operation: Operation, path: string): { status: string; schema: unknown } {
  const responses: Record<string, unknown> = operation.responses ?? {};
  const status = Object.keys(responses).find((code) => code.startsWith("2"));
  const response = status === undefined ? undefined : responses[status];
  const content =
    typeof response === "object" && response !== null && "content" in response ? response.content : undefined;
  const json =
    typeof content === "object" && content !== null && "application/json" in content
      ? content["application/json"]
      : undefined;
  const schema = typeof json === "object" && json !== null && "schema" in json ? json.schema : undefined;
  if (status === undefined || schema === undefined)
    throw new Error(`OpenAPI: GET ${path} has no JSON answer`);
  return { status, schema };
}

/**
 * One GET for the path's two reads: the wallet's list (`keys.list`) and one key (`keys.get`). Its
 * parameter is either, its query parameters the list's, its answer either body (`oneOf`), its errors
 * both operations'. The list's operationId stays, so clients generated from earlier documents keep
 * their method name.
 */
function mergeReads(list: Operation, one: Operation): Operation {
  const listAnswer = successSchema(list, "/api-keys/{wallet}");
  const oneAnswer = successSchema(one, "/api-keys/{id}");
  if (listAnswer.status !== oneAnswer.status)
    throw new Error("OpenAPI: the two GETs answer different statuses");
  const pathSchemas = [list, one].flatMap((operation) =>
    (operation.parameters ?? []).flatMap((parameter) =>
      isPathParameter(parameter) && "schema" in parameter && parameter.schema ? [parameter.schema] : [],
    ),
  );
  const parameters: Parameter[] = (list.parameters ?? []).map((parameter) => {
    if (isPathParameter(parameter)) {
      return { in: "path", name: WALLET_OR_ID, required: true, schema: { oneOf: pathSchemas } };
    }
    if (!("in" in parameter)) return parameter;
    return { ...parameter, description: `${LIST_ONLY} ${parameter.description ?? ""}`.trim() };
  });
  const responses: Record<string, unknown> = { ...one.responses, ...list.responses };
  const success = responses[listAnswer.status];
  responses[listAnswer.status] = {
    ...(typeof success === "object" && success !== null ? success : {}),
    description: "The wallet's keys (a wallet in the path), or the key (a key id)",
    content: { "application/json": { schema: { oneOf: [listAnswer.schema, oneAnswer.schema] } } },
  };
  const ordered = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  return {
    ...list,
    summary: `${list.summary ?? "List a wallet's keys"}, or get one key`,
    description: `With a wallet: ${list.description ?? ""} With a key id (\`key_...\`, tRPC \`keys.get\`): ${one.description ?? ""}`,
    parameters,
    responses: ordered,
  };
}

/**
 * Replaces the path items `/api-keys/{wallet}` (GET: list) and `/api-keys/{id}` (GET: one key,
 * PATCH: update, DELETE: revoke) with one `/api-keys/{walletOrId}` holding one GET for both reads,
 * PATCH and DELETE, in the first one's place. Any other operation on either path fails here, at
 * start, rather than being dropped.
 */
export function mergeWalletOrIdPaths(document: OpenAPIObject): void {
  const paths = document.paths ?? {};
  const list = paths["/api-keys/{wallet}"];
  const byId = paths["/api-keys/{id}"];
  if (!list?.get || !byId?.get || !byId.patch || !byId.delete) {
    throw new Error("OpenAPI: the list, get, update and revoke operations are missing");
  }
  for (const method of OPERATION_METHODS) {
    const byIdMerges = method === "get" || method === "patch" || method === "delete";
    if ((method !== "get" && list[method]) || (!byIdMerges && byId[method])) {
      throw new Error(`OpenAPI: ${method.toUpperCase()} cannot be merged into ${WALLET_OR_ID_PATH}`);
    }
  }
  const merged: PathItem = { get: mergeReads(list.get, byId.get), patch: byId.patch, delete: byId.delete };
  renameParameter(merged, "get", WALLET_OR_ID);
  for (const method of ID_METHODS) renameParameter(merged, method, "id");
  document.paths = Object.fromEntries(
    Object.entries(paths).flatMap(([path, item]): [string, PathItem][] => {
      if (path === "/api-keys/{wallet}") return [[WALLET_OR_ID_PATH, merged]];
      return path === "/api-keys/{id}" ? [] : [[path, item]];
    }),
  );
}
