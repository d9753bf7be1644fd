import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { Context } from "../context.js";
import type { AppCaller } from "../routers/_app.js";
import type { RestRoute } from "../routers/rest.js";
import { requireOperator, requireSession } from "../trpc.js";
import { readJsonBody } from "./body.js";

/** A route of the REST table, prepared for matching requests. */
export interface CompiledRestRoute {
  route: RestRoute;
  /** Literal segments, and `null` where a path parameter sits. */
  segments: (string | null)[];
  paramNames: string[];
  /** Keys whose schema is a number: query strings for them are converted before validation. */
  numberKeys: ReadonlySet<string>;
  /** The procedure takes no input (z.void()): any body is ignored after it is checked. */
  voidInput: boolean;
  /**
   * Set when a later route has the same method and path shape (`GET /api-keys/{id}` before
   * `GET /api-keys/{wallet}`): whether the path parameters parse, else this route gives way (see
   * {@link matchRestRoute}). Null when no route follows it.
   */
  accepts: ((params: Record<string, string>) => boolean) | null;
}

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

function numberKeysOf(schema: z.ZodType): Set<string> {
  const keys = new Set<string>();
  // An input that may be left out (`z.object(...).optional()`) has the same fields when given.
  const input = unwrap(schema);
  if (!(input instanceof z.ZodObject)) return keys;
  for (const [key, value] of Object.entries(input.shape)) {
    if (value instanceof z.ZodType && unwrap(value) instanceof z.ZodNumber) keys.add(key);
  }
  return keys;
}

const PARAMETER = /^\{\w+\}$/;

/** A route's method and path with parameter names erased: routes of one shape match the same requests. */
function shapeOf(route: RestRoute): string {
  return `${route.method} ${route.path.replace(/\{\w+\}/g, "{}")}`;
}

/**
 * Prepares the REST table for matching; literal segments win over parameters (`/api-keys/verify`
 * before `/api-keys/{id}`), and routes of one shape keep the table's order.
 */
export function compileRestRoutes(routes: readonly RestRoute[]): CompiledRestRoute[] {
  const compiled = routes
    .map((route) => {
      const parts = route.path.split("/").slice(1);
      return {
        route,
        segments: parts.map((part) => (PARAMETER.test(part) ? null : part)),
        paramNames: parts.filter((part) => PARAMETER.test(part)).map((part) => part.slice(1, -1)),
        numberKeys: numberKeysOf(route.input),
        voidInput: route.input instanceof z.ZodVoid,
      };
    })
    .sort((a, b) => a.paramNames.length - b.paramNames.length); // stable: the table's order within a count
  return compiled.map((entry, index) => {
    const yields = compiled.slice(index + 1).some((later) => shapeOf(later.route) === shapeOf(entry.route));
    return { ...entry, accepts: yields ? paramsCheck(entry.route.input, entry.paramNames) : null };
  });
}

/**
 * Whether each path parameter parses as its field of the route's input (a field it lacks passes). The
 * field's JSON Schema `pattern`, when it has one, is tested first: a value that fails it cannot parse,
 * and a refusal by zod costs microseconds (its error and issues): every wallet list request would pay
 * one to pass over `GET /api-keys/{id}`. (zod writes a regex's source, not its flags, as the pattern: a
 * path parameter's regex takes none.)
 */
function paramsCheck(
  input: z.ZodType,
  names: readonly string[],
): (params: Record<string, string>) => boolean {
  const checks = names.map((name): [string, (value: string) => boolean] => {
    const field: unknown = input instanceof z.ZodObject ? input.shape[name] : undefined;
    if (!(field instanceof z.ZodType)) return [name, () => true];
    const { pattern } = z.toJSONSchema(field, { io: "input", unrepresentable: "any" });
    const prefilter = typeof pattern === "string" ? new RegExp(pattern) : null;
    return [name, (value) => (prefilter === null || prefilter.test(value)) && field.safeParse(value).success];
  });
  return (params) => checks.every(([name, check]) => check(params[name] ?? ""));
}

/**
 * The route and decoded path parameters for a request, or null. Routes of one shape are tried in the
 * table's order: one whose path parameters do not parse gives way to the next, and the last answers
 * whatever they are (its 400 says why). So `GET /api-keys/key_...` reads one key and every other
 * `GET /api-keys/:segment` is the wallet list, as before `keys.get` existed.
 */
export function matchRestRoute(routes: readonly CompiledRestRoute[], method: string, pathname: string) {
  const parts = pathname.split("/").slice(1);
  if (parts.at(-1) === "") parts.pop();
  for (const compiled of routes) {
    if (compiled.route.method !== method || compiled.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    let paramIndex = 0;
    for (let i = 0; i < parts.length && matched; i++) {
      const segment = compiled.segments[i];
      const part = parts[i] ?? "";
      if (segment === null) {
        const name = compiled.paramNames[paramIndex++];
        if (name === undefined) matched = false;
        else params[name] = decodeSegment(part);
      } else if (segment !== part) matched = false;
    }
    if (matched && (compiled.accepts === null || compiled.accepts(params))) return { compiled, params };
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

/** The input of a GET or DELETE route: its query (numbers converted, first value wins) and path parameters. */
export function readQueryInput(compiled: CompiledRestRoute, url: URL, params: Record<string, string>) {
  const query: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams) {
    if (key in query) continue; // first value wins
    query[key] = compiled.numberKeys.has(key) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return compiled.voidInput ? undefined : { ...query, ...params };
}

async function readInput(
  compiled: CompiledRestRoute,
  req: IncomingMessage,
  url: URL,
  params: Record<string, string>,
) {
  const { method } = compiled.route;
  if (method === "GET" || method === "DELETE") return readQueryInput(compiled, url, params);
  const body = await readJsonBody(req);
  if (compiled.voidInput) return undefined;
  if (body === undefined) return compiled.paramNames.length > 0 ? params : undefined;
  if (compiled.paramNames.length === 0) return body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "The body must be a JSON object" });
  }
  return { ...body, ...params };
}

/**
 * Calls the route's procedure through the caller with the request's input. Invalid input is
 * refused as tRPC refuses it (BAD_REQUEST carrying the ZodError), and after the session check,
 * because tRPC runs a procedure's middlewares before its input parser: 401 comes before 400.
 */
export async function callRestRoute(
  compiled: CompiledRestRoute,
  req: IncomingMessage,
  url: URL,
  params: Record<string, string>,
  ctx: Context,
  caller: AppCaller,
): Promise<unknown> {
  const { route } = compiled;
  const raw = await readInput(compiled, req, url, params);
  const pending = route.call(caller, raw);
  if (pending !== null) return pending;
  if (route.security === "session") await requireSession(ctx);
  if (route.security === "operator") await requireOperator(ctx, route.requires);
  throw new TRPCError({ code: "BAD_REQUEST", cause: route.input.safeParse(raw).error });
}
