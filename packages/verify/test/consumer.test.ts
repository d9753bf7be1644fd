import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findTarball, run, runOk, TSC } from "@keyport/test-support/consumer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerTsconfig } from "./support/consumer.js";
import {
  expressScript,
  firstTypeScriptBlock,
  h3Script,
  honoScript,
  verifierScript,
} from "./support/consumer-scripts.js";
import { type Keyport, startKeyport } from "./support/keyport.js";

// Projects outside the monorepo install the packed package from its tarball with npm, as users would:
// one with the package alone, and one a framework with that framework alone. Each type-checks a script
// with the repository's tsc (strict, skipLibCheck off, so the shipped .d.ts must stand on its own) and
// runs it against the real server. Slow: build, pack, four installs from the registry, compile, run.

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const SLOW = 240_000;
const DOCS = fileURLToPath(new URL("../../../docs/backend.md", import.meta.url));

interface Project {
  name: string;
  /** What the project installs besides the tarball. */
  dependencies: Record<string, string>;
  /** Ambient types its script needs. */
  types?: string[];
  script: (baseUrl: string, key: string, docsExample: string) => string;
}

const PROJECTS: Project[] = [
  { name: "alone", dependencies: {}, script: verifierScript },
  { name: "h3", dependencies: { h3: "2.0.8" }, script: h3Script },
  { name: "hono", dependencies: { hono: "4.13.19" }, script: honoScript },
  {
    name: "express",
    dependencies: { express: "5.3.0", "@types/express": "5.0.6", "@types/node": "20.19.43" },
    types: ["node"],
    script: expressScript,
  },
];

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("projects outside the workspace using the packed @keyport/verify", () => {
  let keyport: Keyport;
  let root: string;
  let key: string;
  let keyId: string;
  const dirOf = (name: string) => join(root, name);

  beforeAll(async () => {
    keyport = await startKeyport();
    ({ key, id: keyId } = await keyport.createKey({ name: "consumer" }));
    root = await mkdtemp(join(tmpdir(), "keyport-verify-consumer-"));
    const docsExample = firstTypeScriptBlock(await readFile(DOCS, "utf8"));
    // `pnpm pack` runs the `prepack` build, applies publishConfig and the root .pnpmfile.cjs's beforePacking.
    await runOk("pnpm", ["pack", "--pack-destination", root], PACKAGE);
    const tarball = await findTarball(root);
    await Promise.all(
      PROJECTS.map(async (project) => {
        const dir = dirOf(project.name);
        await mkdir(dir);
        const manifest = {
          name: `keyport-verify-${project.name}`,
          private: true,
          type: "module",
          dependencies: { "@keyport/verify": `file:${tarball}`, ...project.dependencies },
        };
        await writeFile(join(dir, "package.json"), JSON.stringify(manifest));
        await writeFile(join(dir, "tsconfig.json"), JSON.stringify(consumerTsconfig(project.types)));
        await writeFile(join(dir, "main.ts"), project.script(keyport.baseUrl, key, docsExample));
      }),
    );
    // One install at a time: npm's cache is shared.
    for (const project of PROJECTS) {
      await runOk(
        "npm",
        ["install", "--prefer-offline", "--no-audit", "--no-fund"],
        dirOf(project.name),
        SLOW,
      );
    }
  }, 4 * SLOW);

  afterAll(async () => {
    await keyport?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("ships dist, README and LICENSE, four exports for types and import, no dependency and no workspace package", async () => {
    const installed = join(dirOf("alone"), "node_modules/@keyport/verify");
    const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8"));
    for (const [subpath, file] of [
      [".", "index"],
      ["./h3", "h3"],
      ["./hono", "hono"],
      ["./express", "express"],
    ]) {
      expect(manifest.exports[subpath as string]).toEqual({
        types: `./dist/${file}.d.ts`,
        import: `./dist/${file}.js`,
      });
    }
    expect(manifest.dependencies).toBeUndefined();
    expect(
      Object.keys(manifest.devDependencies ?? {}).filter((name) => name.startsWith("@keyport/")),
    ).toEqual([]);
    expect(JSON.stringify(manifest)).not.toMatch(/workspace:|\.\/src\//);
    expect(await exists(join(installed, "LICENSE"))).toBe(true);
    expect(await exists(join(installed, "README.md"))).toBe(true);
    // The frameworks are optional peers: the package alone installs nothing else.
    const others = (await readdir(join(dirOf("alone"), "node_modules"))).filter(
      (name) => !name.startsWith("."),
    );
    expect(others).toEqual(["@keyport"]);
    for (const file of await readdir(join(installed, "dist"), { recursive: true })) {
      if (!file.endsWith(".js") && !file.endsWith(".d.ts")) continue;
      const text = await readFile(join(installed, "dist", file), "utf8");
      expect(text, file).not.toMatch(/from\s*["'](zod|viem|@trpc\/|@keyport\/|node:)/);
    }
  });

  it("opens docs/backend.md with a five-line example (the h3 project runs it)", async () => {
    const example = firstTypeScriptBlock(await readFile(DOCS, "utf8"));
    expect((await readFile(DOCS, "utf8")).indexOf("```ts")).toBeLessThan(200);
    expect(example.split("\n").filter((line) => line.trim() !== "")).toHaveLength(5);
  });

  it.each(PROJECTS.map((project) => project.name))(
    "type-checks the %s project's strict script against the shipped declarations",
    async (name) => {
      // tsc still writes out/main.js when it reports errors; the runs below use it.
      const result = await run("node", [TSC, "-p", "tsconfig.json"], dirOf(name), SLOW);
      const errors = result.output.split("\n").filter((line) => /: error TS\d+/.test(line));
      // h3 2.0.8's own declarations (and srvx's, which it names) need Node's types, crossws and a newer lib
      // with skipLibCheck off: those are the peer's. The script and this package's .d.ts have none.
      const ours = errors.filter((line) => !/^node_modules\/(h3|srvx)\//.test(line));
      expect(ours).toEqual([]);
    },
    SLOW,
  );

  it("runs the verifier alone against the real server", async () => {
    const output = await runOk("node", ["out/main.js"], dirOf("alone"), 60_000);
    expect(JSON.parse(output.trim().split("\n").at(-1) ?? "")).toEqual({
      code: "VALID",
      keyId,
      notFound: null,
      unavailable: "network",
      warnings: 1,
    });
  });

  it.each(["h3", "hono", "express"])("runs the %s middleware alone against the real server", async (name) => {
    const output = await runOk("node", ["out/main.js"], dirOf(name), 60_000);
    expect(JSON.parse(output.trim().split("\n").at(-1) ?? "")).toEqual({
      ok: 200,
      body: { keyId },
      missing: 401,
      error: {
        code: "UNAUTHORIZED",
        message: "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>",
      },
    });
  });
});
