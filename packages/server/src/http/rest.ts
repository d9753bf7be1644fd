import type { IncomingMessage } from "node:http";
import { type AnyTRPCRouter, callTRPCProcedure, TRPCError } from "@trpc/server";
import { z } from "zod";
import { readJsonBody } from "./body.js";

/** One REST route, derived from a procedure's `meta.openapi`. */
export interface RestRoute {
  method: string;
  /** The OpenAPI path, e.g. `/api-keys/{id}` (used in logs). */
  template: string;
  /** Literal segments, and `null` where a path parameter sits. */
  segments: (string | null)[];
  paramNames: string[];
  procedurePath: string;
  type: "query" | "mutation";
  /** Keys whose schema is a number: query strings for them are converted before validation. */
  numberKeys: ReadonlySet<string>;
  /** The procedure takes no input (z.void()): any body is ignored after it is checked. */
  voidInput: boolean;
  successStatus: number;
}

const procedureDef = z.object({
  type: z.enum(["query", "mutation", "subscription"]),
  meta: z.object({
    openapi: z.object({ method: z.enum(["GET", "POST", "PATCH", "PUT", "DELETE"]), path: z.string() }),
  }),
  inputs: z.array(z.unknown()),
});

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodNullable
  ) {
    const inner = current.unwrap();
    if (!(inner instanceof z.ZodType)) break;
    current = inner;
  }
  return current;
}

function numberKeysOf(input: unknown): Set<string> {
  const keys = new Set<string>();
  if (!(input instanceof z.ZodObject)) return keys;
  for (const [key, value] of Object.entries(input.shape)) {
    if (value instanceof z.ZodType && unwrap(value) instanceof z.ZodNumber) keys.add(key);
  }
  return keys;
}

/**
 * Reads every procedure with `meta.openapi` into a route table, so the REST surface and the OpenAPI
 * document come from the same declarations. POST routes answer 201 when they create something
 * (`keys.create`, `keys.roll`), as REST clients expect.
 */
export function collectRestRoutes(router: AnyTRPCRouter, created: ReadonlySet<string>): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const [path, procedure] of Object.entries(router._def.procedures)) {
    const parsed = procedureDef.safeParse(Reflect.get(Object(procedure), "_def"));
    if (!parsed.success) continue;
    const { type, meta, inputs } = parsed.data;
    if (type === "subscription") continue;
    const input = inputs[0];
    const segments = meta.openapi.path
      .split("/")
      .slice(1)
      .map((part) => (/^\{\w+\}$/.test(part) ? null : part));
    const paramNames = meta.openapi.path
      .split("/")
      .filter((part) => /^\{\w+\}$/.test(part))
      .map((part) => part.slice(1, -1));
    routes.push({
      method: meta.openapi.method,
      template: meta.openapi.path,
      segments,
      paramNames,
      procedurePath: path,
      type,
      numberKeys: numberKeysOf(input),
      voidInput: input instanceof z.ZodVoid,
      successStatus: created.has(path) ? 201 : 200,
    });
  }
  // Literal segments win over parameters (`/api-keys/verify` before `/api-keys/{id}`).
  return routes.sort((a, b) => a.paramNames.length - b.paramNames.length);
}

/** The route and decoded path parameters for a request, or null. */
export function matchRestRoute(routes: readonly RestRoute[], method: string, pathname: string) {
  const parts = pathname.split("/").slice(1);
  if (parts.at(-1) === "") parts.pop();
  for (const route of routes) {
    if (route.method !== method || route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    let paramIndex = 0;
    for (let i = 0; i < parts.length && matched; i++) {
      const segment = route.segments[i];
      const part = parts[i] ?? "";
      if (segment === null) {
        const name = route.paramNames[paramIndex++];
        if (name === undefined) matched = false;
        else params[name] = decodeSegment(part);
      } else if (segment !== part) matched = false;
    }
    if (matched) return { route, params };
  }
  return null;
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // left as is: the input schema rejects it with a proper 400
  }
}

async function readInput(route: RestRoute, req: IncomingMessage, url: URL, params: Record<string, string>) {
  if (route.method === "GET" || route.method === "DELETE") {
    const query: Record<string, unknown> = {};
    for (const [key, value] of url.searchParams) {
      if (key in query) continue; // first value wins
      query[key] = route.numberKeys.has(key) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    }
    return route.voidInput ? undefined : { ...query, ...params };
  }
  const body = await readJsonBody(req);
  if (route.voidInput) return undefined;
  if (body === undefined) return route.paramNames.length > 0 ? params : undefined;
  if (route.paramNames.length === 0) return body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "The body must be a JSON object" });
  }
  return { ...body, ...params };
}

/** Calls the route's procedure with the request's input and a prepared context. */
export async function callRestRoute(
  router: AnyTRPCRouter,
  route: RestRoute,
  req: IncomingMessage,
  url: URL,
  params: Record<string, string>,
  ctx: unknown,
): Promise<unknown> {
  const input = await readInput(route, req, url, params);
  return callTRPCProcedure({
    router,
    path: route.procedurePath,
    getRawInput: async () => input,
    ctx,
    type: route.type,
    signal: undefined,
    batchIndex: 0,
  });
}
