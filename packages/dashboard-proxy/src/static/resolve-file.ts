import { stat } from "node:fs/promises";
import { resolve, sep } from "node:path";

/** A file found under the dashboard folder. */
export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** What a request path names inside the folder. */
export type Lookup = { kind: "file"; file: FoundFile } | { kind: "missing" } | { kind: "invalid" };

/**
 * Finds the file a URL path names under `root` (an absolute folder). Refuses (`invalid`) what could
 * step outside it or confuse the file system: bad percent-encoding, NUL, backslashes, `..` after
 * decoding, and dot-files (`.env`, `.git`), then checks the resolved path still lies under `root`.
 * Directories count as missing (the caller falls back to index.html).
 * @example await lookupFile("/srv/dashboard/dist", "/assets/index-BtfDOiS4.js")
 */
export async function lookupFile(root: string, urlPath: string): Promise<Lookup> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: "invalid" };
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return { kind: "invalid" };
  const segments = decoded.split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => segment.startsWith("."))) return { kind: "invalid" };
  const path = resolve(root, ...segments);
  if (path !== root && !path.startsWith(root + sep)) return { kind: "invalid" };
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return { kind: "missing" };
    return { kind: "file", file: { path, size: stats.size, mtimeMs: stats.mtimeMs } };
  } catch {
    return { kind: "missing" };
  }
}
