import type { OpenAPIObject } from "trpc-to-openapi";
import type { RestRoute } from "../routers/rest.js";
import { OPERATION_METHODS } from "./openapi-paths.js";

/** A path template with its parameter names erased: OpenAPI's own notion of "the same path". */
function shapeOf(template: string): string {
  return template.replace(/\{[^}]*\}/g, "{}");
}

/**
 * Fails unless the final document (as served at /openapi.json, after path items were merged) has
 * exactly one operation for every REST route and no operation without one. Paths are compared with
 * parameter names erased, since the merged `/api-keys/{walletOrId}` stands for `{wallet}` and `{id}`;
 * routes of one method and shape (`GET /api-keys/{wallet}` and `GET /api-keys/{id}`) share their one
 * operation, as OpenAPI allows no other way (http/openapi-paths.ts).
 */
export function assertEveryRouteDocumented(document: OpenAPIObject, routes: readonly RestRoute[]): void {
  const documented = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of OPERATION_METHODS) {
      if (!item[method]) continue;
      const key = `${method.toUpperCase()} ${shapeOf(path)}`;
      if (documented.has(key)) throw new Error(`OpenAPI operation ${key} is documented twice`);
      documented.add(key);
    }
  }
  const expected = new Set(routes.map((route) => `${route.method.toUpperCase()} ${shapeOf(route.path)}`));
  for (const route of routes) {
    if (!documented.has(`${route.method.toUpperCase()} ${shapeOf(route.path)}`)) {
      throw new Error(`REST route ${route.method} ${route.path} is not in the OpenAPI document`);
    }
  }
  for (const key of documented) {
    if (!expected.has(key)) throw new Error(`OpenAPI operation ${key} has no REST route`);
  }
}
