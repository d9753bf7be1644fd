/** Content types of the files a Vite build emits; anything else is served as bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
};

/**
 * The `Content-Type` for a file name, by its extension.
 * @example contentTypeOf("index-BtfDOiS4.js") // "text/javascript; charset=utf-8"
 */
export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return (
    (dot === -1 ? undefined : CONTENT_TYPES[fileName.slice(dot).toLowerCase()]) ?? "application/octet-stream"
  );
}
