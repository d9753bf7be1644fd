import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

/** Where the page loads the API reference's script from: this server, never a CDN. */
export const DOCS_SCRIPT_PATH = "/docs/scalar.js";

/**
 * Sent with the /docs page. Scripts only from this origin (the bundle; the page has no inline
 * script), data for the page from this origin (`/openapi.json`, and the "try it" calls to this
 * server), no framing. Styles allow inline: the bundle injects its stylesheet as a `<style>` element.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/**
 * `@scalar/api-reference`'s standalone browser bundle (one file, no chunks, no CDN), resolved
 * through the package's own entry, and the pinned version that goes into the script's URL, so a
 * new version is a new URL and the bundle can be cached for a year.
 */
function locateBundle(): { file: string; version: string } {
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
  const root = dirname(dirname(entry)); // <package>/dist/index.js -> <package>
  const manifest: unknown = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const version =
    typeof manifest === "object" && manifest !== null ? Reflect.get(manifest, "version") : undefined;
  if (typeof version !== "string")
    throw new Error("@scalar/api-reference has no version in its package.json");
  return { file: join(root, "dist", "browser", "standalone.js"), version };
}

/**
 * The reference's configuration (options of `@scalar/api-reference`, read from its
 * `@scalar/types/api-reference` schema). Everything that would talk to Scalar's cloud is off: it cannot
 * work offline and would send the document out (docs/decisions.md, "The API reference at /docs").
 */
export const DOCS_CONFIGURATION = {
  url: "/openapi.json",
  /** Scalar's fonts come from fonts.scalar.com. */
  withDefaultFonts: false,
  /** "Ask AI" (Scalar's agent), which sends the document and the question to Scalar. */
  agent: { disabled: true },
  /** "Generate MCP", which uploads the document to Scalar's registry. */
  mcp: { disabled: true },
  /** The "Open API Client" button, a link to client.scalar.com. */
  hideClientButton: true,
  /** The developer toolbar (configure, share, deploy to Scalar), shown on localhost by default. */
  showDeveloperTools: "never",
  /** PostHog analytics of the page's use. */
  telemetry: false,
} as const;

/**
 * The /docs page: the configuration sits in a data attribute (no inline script, so the CSP needs no
 * 'unsafe-inline' for scripts).
 */
function docsHtml(version: string): string {
  const configuration = JSON.stringify(DOCS_CONFIGURATION).replaceAll('"', "&quot;");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Keyport API reference</title>
  </head>
  <body>
    <div id="api-reference" data-configuration="${configuration}"></div>
    <script src="${DOCS_SCRIPT_PATH}?v=${version}"></script>
  </body>
</html>
`;
}

/** The /docs page and its script, both served from this process (nothing from a CDN). */
export interface DocsPages {
  /** `GET /docs` (and HEAD): the HTML, with CSP, `nosniff` and `frame-ancestors 'none'`. */
  sendPage(res: ServerResponse): void;
  /**
   * `GET /docs/scalar.js` (and HEAD): the bundle, cached for a year (its URL carries the version),
   * gzipped (about a quarter of its 4 MB) for a client whose `Accept-Encoding` allows it.
   */
  sendScript(res: ServerResponse, acceptEncoding: string | undefined): Promise<void>;
}

const gzipAsync = promisify(gzip);

/** Runs `load` once and keeps its result; a failure is forgotten, so a later call tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/**
 * Builds the /docs handlers. The 4 MB bundle is read (and gzipped) on the first request for it, then kept.
 * @example const docs = createDocsPages(); docs.sendPage(res)
 */
export function createDocsPages(): DocsPages {
  const bundle = locateBundle();
  const html = docsHtml(bundle.version);
  const plain = once(() => readFile(bundle.file));
  const gzipped = once(async () => gzipAsync(await plain(), { level: 9 }));
  return {
    sendPage(res) {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/html; charset=utf-8",
        "content-length": Buffer.byteLength(html),
        "content-security-policy": DOCS_CSP,
        "x-frame-options": "DENY",
        "cache-control": "no-cache",
      });
      res.end(html);
    },
    async sendScript(res, acceptEncoding) {
      const compress = acceptsGzip(acceptEncoding);
      const body = compress ? await gzipped() : await plain();
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/javascript; charset=utf-8",
        "content-length": body.byteLength,
        "cache-control": "public, max-age=31536000, immutable",
        vary: "accept-encoding",
        ...(compress ? { "content-encoding": "gzip" } : {}),
      });
      res.end(body);
    },
  };
}

/** True when `Accept-Encoding` lists gzip (or `*`) without `q=0`. */
function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(",").some((part) => {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    return (coding.trim() === "gzip" || coding.trim() === "*") && !refused;
  });
}
