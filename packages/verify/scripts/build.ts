import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";

// Builds dist/ for consumers outside the monorepo: the main entry and one file a framework.
// 1. esbuild bundles the JavaScript of each entry (shared code in a chunk), @keyport/errors inlined and
//    the frameworks left as imports of their optional peers; the server is never imported at run time.
// 2. tsc writes the declarations of src and of @keyport/errors; server-types.d.ts is then replaced by
//    the same types printed out in full by the checker, so the shipped .d.ts names neither the server
//    nor zod (the types stay derived from the server's schemas at every build).

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
// Inside dist (git- and lint-ignored), removed once the declarations are copied out.
const STAGE = join(DIST, ".stage");
const ENTRIES = ["index", "h3", "hono", "express"];
const PEERS = ["h3", "hono", "express"];
// The module whose declarations are printed in full, and the types it exports.
const SERVER_TYPES = join(ROOT, "src/server-types.ts");

function readConfig(path: string): ts.ParsedCommandLine {
  const config = ts.getParsedCommandLineOfConfigFile(
    path,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${path}`);
  return config;
}

function fail(diagnostics: readonly ts.Diagnostic[]): never {
  const host = {
    getCanonicalFileName: (f: string) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => "\n",
  };
  throw new Error(ts.formatDiagnostics(diagnostics, host));
}

/** Writes the declarations of this package's and @keyport/errors' sources to STAGE; returns the program. */
function emitDeclarations(): ts.Program {
  const config = readConfig(join(ROOT, "tsconfig.build.json"));
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const errorsSource = join(ROOT, "../errors/src/");
  // Only these files are emitted and judged: the server's sources are read for their types only.
  const own = program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(join(ROOT, "src/")) || file.fileName.startsWith(errorsSource))
    .filter((file) => !file.fileName.endsWith(".test.ts"));
  const diagnostics = own.flatMap((file) => [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
    ...program.getDeclarationDiagnostics(file),
  ]);
  if (diagnostics.length > 0) fail(diagnostics);
  for (const file of own) {
    const result = program.emit(file);
    if (result.diagnostics.length > 0) fail(result.diagnostics);
  }
  return program;
}

/** server-types.ts's exported aliases, each printed in full (object types, no server or zod name). */
function printServerTypes(program: ts.Program): string {
  const source = program.getSourceFile(SERVER_TYPES);
  if (!source) throw new Error("server-types.ts is not in the program");
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter();
  const flags =
    ts.NodeBuilderFlags.NoTruncation |
    ts.NodeBuilderFlags.InTypeAlias |
    ts.NodeBuilderFlags.MultilineObjectLiterals;
  const lines = [
    "// Printed by scripts/build.ts from the server's schemas (src/server-types.ts).",
    'import type { JsonValue } from "./json.js";',
  ];
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const node = checker.typeToTypeNode(checker.getTypeAtLocation(statement.name), undefined, flags);
    if (!node) throw new Error(`cannot print ${statement.name.text}`);
    const printed = printer.printNode(ts.EmitHint.Unspecified, node, source);
    if (/\bz\.|import\(|\bany\b/.test(printed))
      throw new Error(`${statement.name.text} did not print in full: ${printed}`);
    const doc = ts
      .getJSDocCommentsAndTags(statement)
      .map((comment) => comment.getText(source))
      .join("\n");
    lines.push(`${doc}\nexport type ${statement.name.text} = ${printed};`);
  }
  return `${lines.join("\n")}\n`;
}

/** Fails the build if a bundle imports anything but its peers and its own files. */
function checkImports(file: string, text: string): void {
  const imported = [...text.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? "",
  );
  const strays = imported.filter(
    (id) => !id.startsWith("./") && !id.startsWith("../") && !PEERS.includes(id),
  );
  if (strays.length > 0) throw new Error(`${file} imports ${[...new Set(strays)].join(", ")}`);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Copies the staged declarations of `from` to `to`, pointing `@keyport/errors` at the copy in dist/errors. */
async function copyDeclarations(from: string, to: string): Promise<void> {
  for (const file of await filesUnder(from)) {
    if (!file.endsWith(".d.ts")) continue;
    const target = join(to, relative(from, file));
    let errorsPath = relative(dirname(target), join(DIST, "errors/index.js"));
    if (!errorsPath.startsWith(".")) errorsPath = `./${errorsPath}`;
    const text = (await readFile(file, "utf8")).replaceAll('"@keyport/errors"', JSON.stringify(errorsPath));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

await rm(DIST, { recursive: true, force: true });
await mkdir(STAGE, { recursive: true });

const program = emitDeclarations();
await writeFile(join(STAGE, "verify/src/server-types.d.ts"), printServerTypes(program));
await copyDeclarations(join(STAGE, "verify/src"), DIST);
await copyDeclarations(join(STAGE, "errors/src"), join(DIST, "errors"));
await rm(STAGE, { recursive: true, force: true });

await build({
  entryPoints: ENTRIES.map((name) => join(ROOT, `src/${name}.ts`)),
  outdir: DIST,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  chunkNames: "chunks/[name]-[hash]",
  // @keyport/errors from its source, inlined; the frameworks are the consumer's.
  conditions: ["source"],
  external: PEERS.flatMap((name) => [name, `${name}/*`]),
  logLevel: "warning",
});

for (const file of await filesUnder(DIST)) {
  if (file.endsWith(".js") || file.endsWith(".d.ts")) checkImports(file, await readFile(file, "utf8"));
}
console.log(`built ${ENTRIES.map((name) => `dist/${name}.js`).join(", ")} and their .d.ts`);
