import { cpSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite folder that `copyPgliteTemplate` copies; empty when the global setup did not run. */
    pgliteTemplate: string;
    /** Where this run's copies go (deleted when the run ends). */
    pgliteCopies: string;
  }
}

/**
 * A new data dir (`DATA_DIR`) holding a copy of the run's migrated PGlite template as its `pglite`
 * folder, which the server opens without PGlite's initdb; deleted when the run ends. Undefined when the
 * project has no `@keyport/test-support/pglite-template` global setup (then use `memory:`).
 * @example const dataDir = copyPgliteTemplate("verify"); parseEnv(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: "memory:" })
 */
export function copyPgliteTemplate(prefix: string): string | undefined {
  const template = inject("pgliteTemplate");
  if (!template) return undefined;
  const dataDir = mkdtempSync(join(inject("pgliteCopies"), `${prefix}-`));
  cpSync(template, join(dataDir, "pglite"), { recursive: true });
  return dataDir;
}
