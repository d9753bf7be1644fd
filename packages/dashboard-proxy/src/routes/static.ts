import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { type H3, type H3Event, HTTPError } from "h3";
import { errorResponse } from "../http/errors.js";
import { rawPathname } from "../http/raw-path.js";
import { contentTypeOf } from "../static/content-types.js";
import { type FoundFile, lookupFile } from "../static/resolve-file.js";
import { HTML_SECURITY_HEADERS } from "../static/security-headers.js";

/** Where the dashboard's build is. */
export interface StaticOptions {
  /** `DASHBOARD_DIR`. */
  dir: string;
}

// Paths that belong to the API: a miss there is the JSON 404 envelope, never the page.
const API_PREFIXES = ["/api/", "/trpc/"];
const API_PATHS = new Set(["/api", "/trpc", "/metrics", "/healthz"]);
// Vite's hashed output: a name changes whenever its content does, so it may be kept forever.
const ASSETS_PREFIX = "/assets/";
const IMMUTABLE = "public, max-age=31536000, immutable";

// In the error envelope like every other refusal, so API clients and probes read one format.
const NOT_BUILT =
  "The dashboard is not built: run `pnpm --filter @keyport/dashboard build` (`pnpm start` at the repository root builds it). The API routes under /api and /trpc work meanwhile.";

/**
 * Registers the dashboard at `/` (GET and HEAD): files from `dir`; `/assets/*` cached immutably;
 * `index.html` revalidated on every load (`no-cache`, with an ETag); any other path that is not a
 * file gets index.html, so the page's own routes (`/keys`, `/usage`) survive a reload. A missing
 * `/assets/*` file is a plain 404, not the page: a stale tab asking for an old chunk must fail
 * visibly rather than parse HTML as JavaScript. Registered last: every API route is more specific.
 */
export function registerStaticRoutes(app: H3, options: StaticOptions): void {
  const root = resolve(options.dir);

  app.get("/**", async (event) => {
    const path = event.url.pathname;
    if (API_PATHS.has(path) || API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      // No route of the API matched: count it as unmatched in /metrics, not as the page.
      delete event.context.matchedRoute;
      throw new HTTPError({ status: 404 });
    }
    // Decoded once, by lookupFile, from the path as sent.
    const found = await lookupFile(root, rawPathname(event));
    if (found.kind === "invalid") throw new HTTPError({ status: 400 });
    if (found.kind === "file") {
      const cacheControl = path.startsWith(ASSETS_PREFIX) ? IMMUTABLE : "no-cache";
      return serveFile(event, found.file, cacheControl);
    }
    if (path.startsWith(ASSETS_PREFIX)) return notFound("No such file");
    const index = await lookupFile(root, "/index.html");
    if (index.kind !== "file") return notFound(NOT_BUILT);
    return serveFile(event, index.file, "no-cache");
  });
}

async function serveFile(event: H3Event, file: FoundFile, cacheControl: string): Promise<Response> {
  const type = contentTypeOf(basename(file.path));
  const etag = `W/"${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}"`;
  const headers: Record<string, string> = {
    "content-type": type,
    "cache-control": cacheControl,
    etag,
    "x-content-type-options": "nosniff",
    ...(type.startsWith("text/html") ? HTML_SECURITY_HEADERS : {}),
  };
  if (event.req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  if (event.req.method === "HEAD") {
    return new Response(null, { status: 200, headers: { ...headers, "content-length": String(file.size) } });
  }
  const data = await readFile(file.path);
  return new Response(data, {
    status: 200,
    headers: { ...headers, "content-length": String(data.byteLength) },
  });
}

function notFound(message: string): Response {
  return errorResponse({ code: "NOT_FOUND", message });
}
