import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ENTRY = fileURLToPath(new URL("./index.ts", import.meta.url));
const SCHEMAS_DIR = fileURLToPath(new URL("./", import.meta.url));
const SERVER_DIR = fileURLToPath(new URL("../../", import.meta.url));

// What the dashboard bundles from @keyport/server/schemas: anything else (node:crypto, pino, drizzle,
// the server's own modules) would break or bloat its Vite build.
const ALLOWED_PACKAGES = new Set(["zod", "viem"]);

describe("@keyport/server/schemas", () => {
  it("bundles for the browser from the schemas folder, zod and viem alone", async () => {
    // platform "browser" fails the build on any node: import; the metafile lists every file read.
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.entries(result.metafile.inputs).map(([path, input]) => ({
      file: fileURLToPath(new URL(path, `file://${process.cwd()}/`)),
      imports: input.imports,
    }));
    const ours = inputs.filter(({ file }) => file.startsWith(SERVER_DIR) && !file.includes("/node_modules/"));
    expect(
      ours
        .map(({ file }) => file.slice(SERVER_DIR.length))
        .filter((file) => !file.startsWith("src/schemas/")),
    ).toEqual([]);
    expect(ours.length).toBeGreaterThan(5);
    const packages = ours
      .filter(({ file }) => file.startsWith(SCHEMAS_DIR))
      .flatMap(({ imports }) => imports.map((entry) => entry.original ?? ""))
      .filter((specifier) => specifier !== "" && !specifier.startsWith("."));
    expect([...new Set(packages)].filter((name) => !ALLOWED_PACKAGES.has(name))).toEqual([]);
  });
});
