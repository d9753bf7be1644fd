import { mkdir, readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Plugin, rollup } from "rollup";
import { dts } from "rollup-plugin-dts";
import ts from "typescript";
import { readTsConfig } from "./tsconfig-file.js";

// Builds dist/index.js (ESM) and dist/index.d.ts for consumers outside the monorepo:
// 1. tsc compiles src (and the proxy, @keyport/errors and server modules it imports) to a staging
//    folder; `@keyport/server` is mapped to the server's routers/_app.ts, whose `AppRouter` names only
//    the project's own interfaces, zod and tRPC types (never drizzle or pino), and the client imports
//    only types from it, so no server code reaches the JavaScript;
// 2. rollup links the JavaScript and rollup-plugin-dts the declarations, inlining the private
//    workspace packages and keeping the npm dependencies as imports.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = `${ROOT}dist/`;
// Inside dist (git- and lint-ignored) but not under node_modules, where TypeScript would treat the staged
// declarations as an external library; removed once the bundles are written.
const STAGE = `${DIST}.stage/`;

const packageJson: unknown = JSON.parse(await readFile(`${ROOT}package.json`, "utf8"));
/** The names under one dependency field of package.json. */
function namesIn(field: "dependencies" | "peerDependencies"): string[] {
  if (typeof packageJson !== "object" || packageJson === null || !(field in packageJson)) return [];
  const value: unknown = Reflect.get(packageJson, field);
  return typeof value === "object" && value !== null ? Object.keys(value) : [];
}
// What the bundles may import: what npm installs beside the package (tRPC, zod and viem are the consumer's).
const dependencies = [...namesIn("dependencies"), ...namesIn("peerDependencies")];
const isDependency = (id: string) => dependencies.some((name) => id === name || id.startsWith(`${name}/`));

/** Points the private workspace packages at their staged build, so they are bundled, not imported. */
function workspacePackages(extension: ".js" | ".d.ts"): Plugin {
  const targets: Record<string, string> = {
    "@keyport/dashboard-proxy": `${STAGE}tsc/dashboard-proxy/src/index${extension}`,
    "@keyport/dashboard-proxy/schemas": `${STAGE}tsc/dashboard-proxy/src/schemas/index${extension}`,
    "@keyport/errors": `${STAGE}tsc/errors/src/index${extension}`,
    "@keyport/node-edge": `${STAGE}tsc/node-edge/src/index${extension}`,
    "@keyport/server": `${STAGE}tsc/server/src/routers/_app${extension}`,
  };
  return {
    name: "keyport-workspace-packages",
    resolveId: (id) => targets[id] ?? null,
  };
}

function compile(): void {
  const configPath = `${ROOT}tsconfig.build.json`;
  const config = readTsConfig(configPath);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const result = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const host = {
      getCanonicalFileName: (f: string) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => "\n",
    };
    throw new Error(ts.formatDiagnostics(diagnostics, host));
  }
}

/** Fails the build if a bundle imports anything but the package's dependencies. */
function checkImports(file: string, text: string): void {
  const imported = [...text.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? "",
  );
  const strays = imported.filter((id) => !isDependency(id));
  if (strays.length > 0)
    throw new Error(`${file} imports non-dependencies: ${[...new Set(strays)].join(", ")}`);
}

async function bundle(input: string, output: string, plugins: Plugin[]): Promise<void> {
  const build = await rollup({
    input,
    plugins,
    // Bare imports stay imports; those that are not dependencies (h3, pino in the proxy's server modules)
    // must be tree-shaken away, which `checkImports` verifies on the output.
    external: (id) => !id.startsWith("@keyport/") && !id.startsWith(".") && !id.startsWith("/"),
    // Only what the client uses of the proxy survives (its schemas), not its server modules.
    treeshake: { moduleSideEffects: false },
    onwarn: (warning) => {
      throw new Error(`rollup: ${warning.message}`);
    },
  });
  await build.write({ file: output, format: "es" });
  await build.close();
  checkImports(output, await readFile(output, "utf8"));
}

await rm(DIST, { recursive: true, force: true });
await mkdir(STAGE, { recursive: true });
compile();
await bundle(`${STAGE}tsc/client/src/index.js`, `${DIST}index.js`, [workspacePackages(".js")]);
await bundle(`${STAGE}tsc/client/src/index.d.ts`, `${DIST}index.d.ts`, [workspacePackages(".d.ts"), dts()]);
await rm(STAGE, { recursive: true, force: true });
console.log(`built ${DIST}index.js and ${DIST}index.d.ts`);
