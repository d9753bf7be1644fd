import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findTarball, run, runOk, TSC } from "@keyport/test-support/consumer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  consumerPackageJson,
  consumerTsconfig,
  mainScript,
  WRONG_SCRIPT,
} from "./support/consumer-project.js";
import { type RunningServer, startKeyportServer } from "./support/keyport-server.js";

// A project outside the monorepo installs the packed client from its tarball with npm, as most users would,
// type-checks a script with the repository's tsc (strict, skipLibCheck off, so the shipped .d.ts must stand
// on its own) and runs it against a real server. Slow: build, pack, install from the registry, compile, run.

const CLIENT = fileURLToPath(new URL("..", import.meta.url));
const SLOW = 240_000;

// The manifest as npm installed it, validated: only the fields the test reads.
const dependencyMap = z.record(z.string(), z.string()).optional();
const manifestSchema = z.looseObject({
  files: z.array(z.string()),
  dependencies: dependencyMap,
  devDependencies: dependencyMap,
  peerDependencies: dependencyMap,
  version: z.string().optional(),
});

async function readManifest(path: string): Promise<z.infer<typeof manifestSchema>> {
  return manifestSchema.parse(JSON.parse(await readFile(path, "utf8")));
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("a project outside the workspace using the packed client", () => {
  let server: RunningServer;
  let dir: string;
  const installed = (path: string) => join(dir, "node_modules", path);

  beforeAll(async () => {
    server = await startKeyportServer();
    dir = await mkdtemp(join(tmpdir(), "keyport-consumer-"));
    // `pnpm pack` runs the `prepack` build, applies publishConfig and the root .pnpmfile.cjs's beforePacking.
    await runOk("pnpm", ["pack", "--pack-destination", dir], CLIENT);
    const tarball = await findTarball(dir);
    await writeFile(join(dir, "package.json"), JSON.stringify(consumerPackageJson(tarball)));
    await runOk("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], dir, SLOW);
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(consumerTsconfig("main.ts")));
    await writeFile(join(dir, "tsconfig.wrong.json"), JSON.stringify(consumerTsconfig("wrong.ts")));
    await writeFile(join(dir, "main.ts"), mainScript(server.trpcUrl));
    await writeFile(join(dir, "wrong.ts"), WRONG_SCRIPT);
  }, SLOW);

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ships dist, its README, CHANGELOG and LICENSE, with exports for types and import and no workspace package", async () => {
    const manifest = await readManifest(installed("@keyport/client/package.json"));
    expect(manifest).toMatchObject({
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      files: ["dist", "README.md", "CHANGELOG.md", "LICENSE"],
    });
    const text = JSON.stringify(manifest);
    expect(text).not.toContain("workspace:");
    expect(text).not.toContain("./src/");
    // The unpublished workspace packages are bundled, so no dependency field may name one.
    const named = [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies].flatMap(
      (map) => Object.keys(map ?? {}),
    );
    expect(named.filter((name) => name.startsWith("@keyport/"))).toEqual([]);
    // Both bundles import what npm installs beside the package only: the server's and proxy's parts are
    // inlined or gone.
    const allowed = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ];
    for (const file of ["dist/index.js", "dist/index.d.ts"]) {
      const bundle = await readFile(installed(`@keyport/client/${file}`), "utf8");
      const imported = [...bundle.matchAll(/\bfrom\s+["']([^"']+)["']/g)].map((match) => match[1]);
      expect(imported.length).toBeGreaterThan(0);
      for (const id of imported) {
        expect(
          allowed.some((name) => id === name || id?.startsWith(`${name}/`)),
          `${file}: ${id}`,
        ).toBe(true);
      }
      expect(bundle).not.toMatch(/drizzle|pglite|postgres\.js|pino/i);
    }
  });

  it("takes tRPC, zod and viem as peers: npm installs one copy of each, the project's", async () => {
    const manifest = await readManifest(installed("@keyport/client/package.json"));
    expect(manifest.peerDependencies).toEqual({
      "@trpc/client": "^11.22.1",
      "@trpc/server": "^11.22.1",
      viem: "^2.0.0",
      zod: "^4.0.0",
    });
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(["eventsource-parser", "superjson"]);
    for (const name of ["@trpc/client", "@trpc/server"]) {
      expect((await readManifest(installed(`${name}/package.json`))).version).toBe("11.22.1");
    }
    // zod was not listed by the project: npm installed it because the client names it as a peer.
    expect((await readManifest(installed("zod/package.json"))).version).toMatch(/^4\./);
    for (const name of ["@trpc/client", "@trpc/server", "zod", "viem"]) {
      expect(await exists(installed(`@keyport/client/node_modules/${name}`)), name).toBe(false);
    }
  });

  it(
    "type-checks a strict script against the shipped declarations",
    async () => {
      // tsc still writes out/main.js when it reports errors; the run below uses it.
      const result = await run("node", [TSC, "-p", "tsconfig.json"], dir, SLOW);
      const errors = result.output.split("\n").filter((line) => /: error TS\d+/.test(line));
      // tRPC 11.22 to 11.24's own declarations of its Node adapters name node:http and ws types that a
      // project without @types/node lacks (@types/ws's ESM typings do not fit them either); 11.25 fixed it.
      // Those are the peer's, at the floor of the range: the client's own .d.ts and the script have none.
      expect(errors.filter((line) => !line.startsWith("node_modules/@trpc/server/dist/"))).toEqual([]);
    },
    SLOW,
  );

  it(
    "fails to compile wrong calls",
    async () => {
      const result = await run("node", [TSC, "-p", "tsconfig.wrong.json", "--noEmit"], dir, SLOW);
      expect(result.code).not.toBe(0);
      const errors = result.output.split("\n").filter((line) => /^wrong\.ts\(\d+,\d+\): error TS/.test(line));
      expect(errors.map((line) => line.slice(0, line.indexOf(":")))).toEqual([
        expect.stringMatching(/^wrong\.ts\(4,/),
        expect.stringMatching(/^wrong\.ts\(6,/),
      ]);
    },
    SLOW,
  );

  it(
    "runs the compiled script against the server: signs in, creates and lists keys, reads failures",
    async () => {
      const output = await runOk("node", [join(dir, "out/main.js")], dir, 60_000);
      const result = z
        .looseObject({ created: z.string(), listed: z.array(z.string()) })
        .parse(JSON.parse(output.trim().split("\n").at(-1) ?? ""));
      expect(result.listed).toEqual([result.created]);
      expect(result).toMatchObject({
        listed: [expect.stringMatching(/^key_/)],
        firstName: "consumer",
        createdAtIsDate: true,
        otherWallet: true,
        verified: "VALID",
        notFound: "TRPCClientError NOT_FOUND 404",
        badCoin: "other BAD_REQUEST 400",
      });
    },
    SLOW,
  );
});
