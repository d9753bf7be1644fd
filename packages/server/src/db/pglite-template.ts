import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pgliteOptions } from "./pglite-options.js";

// A migrated, empty PGlite data folder, committed as a gzipped tarball (`pnpm --filter @keyport/server
// db:template` writes it). A first start unpacks it instead of running initdb, which costs about 10 s of
// CPU inside PGlite's WASM runtime; the tarball is used only while its key matches what it was made from.
const DRIZZLE = fileURLToPath(new URL("../../drizzle", import.meta.url));
export const TEMPLATE_FILE = join(DRIZZLE, "pglite-template.tar.gz");
export const TEMPLATE_KEY_FILE = join(DRIZZLE, "pglite-template.json");

/** What a template's contents depend on: the PGlite build, its start options and every migration. */
export function pgliteTemplateKey(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(pglitePackageJson()));
  hash.update(JSON.stringify(pgliteOptions()));
  const files = readdirSync(DRIZZLE, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".sql") || file.endsWith("_journal.json"))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(join(DRIZZLE, file)));
  return hash.digest("hex");
}

// PGlite's `exports` do not list its package.json: find it beside the entry point Node resolves.
function pglitePackageJson(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "..", "package.json");
}

/** The committed template when it was made from exactly these migrations and this PGlite, else null. */
export function readPgliteTemplate(): Blob | null {
  if (!existsSync(TEMPLATE_FILE) || !existsSync(TEMPLATE_KEY_FILE)) return null;
  const recorded: unknown = JSON.parse(readFileSync(TEMPLATE_KEY_FILE, "utf8"));
  const key = typeof recorded === "object" && recorded !== null && "key" in recorded ? recorded.key : null;
  if (key !== pgliteTemplateKey()) return null;
  return new Blob([readFileSync(TEMPLATE_FILE)]);
}
