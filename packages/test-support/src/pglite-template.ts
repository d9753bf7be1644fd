import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TestProject } from "vitest/node";
import type {} from "./pglite-copy.js";

/** What the global setup needs of the server: its database opener (migrations included). */
interface ServerModule {
  createDatabase(url: undefined, dataDir: string): Promise<{ close(): Promise<void> }>;
}

function isServerModule(value: unknown): value is ServerModule {
  return typeof Reflect.get(Object(value), "createDatabase") === "function";
}

/**
 * The server under test, as the project resolves `@keyport/server` (the server's own tests through its
 * package name, the others through their devDependency). Found at run time rather than imported, so this
 * package depends on no server and the server's tests can depend on it without a cycle.
 */
async function loadServer(project: TestProject): Promise<{ root: string; module: ServerModule }> {
  const entry = createRequire(join(project.config.root, "package.json")).resolve("@keyport/server");
  const module: unknown = await import(pathToFileURL(entry).href);
  if (!isServerModule(module)) throw new Error(`${entry} exports no createDatabase`);
  // The entry is src/index.ts: the package's folder is one up.
  return { root: dirname(dirname(entry)), module };
}
// In memory where the system has it, like `memory:`; a disk folder works too, only slower.
const ROOT = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/** What the template's contents depend on: the migrations, the PGlite build and its start options. */
function templateKey(server: string): string {
  const hash = createHash("sha256");
  const migrations = join(server, "drizzle");
  for (const file of readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
    if (file.endsWith(".sql") || file.endsWith(".json"))
      hash.update(file).update(readFileSync(join(migrations, file)));
  }
  hash.update(readFileSync(join(server, "src/db/pglite-options.ts")));
  // The exact PGlite version (pinned) is in the server's package.json.
  hash.update(readFileSync(join(server, "package.json")));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Vitest global setup: provides a migrated PGlite folder for `copyPgliteTemplate` to copy. A new PGlite runs
 * initdb in WASM (seconds of CPU, the largest part of most server test files); copying a finished folder
 * and opening the copy skips it. The template is kept between runs, keyed by what it depends on; a new
 * one is built aside and renamed into place, so concurrent runs never see half of one.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  removeLeftovers();
  const server = await loadServer(project);
  const template = join(ROOT, `keyport-pglite-template-${templateKey(server.root)}`);
  if (!existsSync(join(template, "pglite", "PG_VERSION"))) {
    const building = mkdtempSync(join(ROOT, "keyport-pglite-building-"));
    const database = await server.module.createDatabase(undefined, building);
    await database.close();
    try {
      renameSync(building, template);
    } catch {
      // Another run finished the same template first.
      rmSync(building, { recursive: true, force: true });
    }
  }
  const copies = mkdtempSync(join(ROOT, "keyport-test-"));
  project.provide("pgliteTemplate", join(template, "pglite"));
  project.provide("pgliteCopies", copies);
  return () => rmSync(copies, { recursive: true, force: true });
}

/** Copies and half-built templates of runs that were killed before their teardown (they hold memory). */
function removeLeftovers(): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(ROOT)) {
    if (!name.startsWith("keyport-test-") && !name.startsWith("keyport-pglite-building-")) continue;
    const path = join(ROOT, name);
    if (statSync(path).mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true });
  }
}
