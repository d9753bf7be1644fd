// Builds the Node package in the current directory (the server or the dashboard proxy): every module
// of src/ to dist/, one file each (a transpile, not a bundle, so paths such as the server's
// `new URL("../../drizzle", import.meta.url)` hold), leaving tests and type tests out of dist/.
// Usage, from a package's `build` script: node ../../scripts/build-node-package.mjs
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const TEST_SOURCE = /\.test(-d)?\.ts$/;
const TEST_OUTPUT = /\.test(-d)?\.js(\.map)?$/;

const entryPoints = readdirSync("src", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !TEST_SOURCE.test(file))
  .map((file) => join("src", file));

// Test files an older build wrote: removed one by one rather than clearing dist/, which a running
// server may still be loading modules from.
try {
  for (const file of readdirSync("dist", { recursive: true, encoding: "utf8" })) {
    if (TEST_OUTPUT.test(file)) rmSync(join("dist", file));
  }
} catch (error) {
  if (!(error instanceof Error && "code" in error && error.code === "ENOENT")) throw error;
}

await build({
  entryPoints,
  outbase: "src",
  outdir: "dist",
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
