import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { findTarball, run, runOk, TSC } from "./support/consumer.js";
import { type RunningServer, startKeyportServer } from "./support/keyport-server.js";

// A project outside the monorepo installs the packed client from its tarball, type-checks a script with
// the repository's tsc (strict, skipLibCheck off, so the shipped .d.ts must stand on its own) and runs it
// against a real server. Slow: build, pack, install (from pnpm's store where it can), compile, run.

const CLIENT = fileURLToPath(new URL("..", import.meta.url));
const SLOW = 240_000;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    // tRPC's declarations use Disposable (TypeScript 5.2+ lib), which skipLibCheck: false surfaces.
    lib: ["ES2023", "ESNext.Disposable", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: [],
    outDir: "out",
  },
};

function mainScript(trpcUrl: string): string {
  return `import { type ApiKey, createDashboardClient, createKeyportClient, KeyportError } from "@keyport/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const account = privateKeyToAccount(generatePrivateKey());
const keyport = createKeyportClient({ url: ${JSON.stringify(trpcUrl)} });
await keyport.signIn({ account }, { chainId: 1, domain: "localhost", uri: "http://localhost/login" });
const created = await keyport.keys.create.mutate({ name: "consumer", rateLimit: { limit: 5, windowSeconds: 60 } });
const page = await keyport.keys.list.query({ wallet: account.address });
const first: ApiKey | undefined = page.keys[0];
const createdAt: Date = created.apiKey.createdAt;

async function failure(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "none";
  } catch (error) {
    return error instanceof KeyportError ? \`\${error.code} \${error.status}\` : "not a KeyportError";
  }
}
// Checked by the bundled proxy schema before any request: the port is closed on purpose.
const dashboard = createDashboardClient({ baseUrl: "http://127.0.0.1:1" });

console.log(JSON.stringify({
  wallet: account.address,
  created: created.apiKey.id,
  listed: page.keys.map((key) => key.id),
  firstName: first?.name,
  createdAtIsDate: createdAt instanceof Date,
  verified: (await keyport.keys.verify.mutate({ key: created.key })).code,
  notFound: await failure(() => keyport.keys.revoke.mutate({ id: "key_0000000000000000" })),
  badCoin: await failure(() => dashboard.prices.chart("../etc", { vs_currency: "usd", days: "7" })),
}));
`;
}

const WRONG_SCRIPT = `import { createDashboardClient, createKeyportClient } from "@keyport/client";

const keyport = createKeyportClient({ url: "http://127.0.0.1:1/trpc" });
await keyport.keys.create.mutate({ name: 42 });
const dashboard = createDashboardClient({ baseUrl: "" });
await dashboard.prices.chart("bitcoin", { vs_currency: "usd", days: "2" });
`;

describe("a project outside the workspace using the packed client", () => {
  let server: RunningServer;
  let dir: string;

  beforeAll(async () => {
    server = await startKeyportServer();
    dir = await mkdtemp(join(tmpdir(), "keyport-consumer-"));
    // `pnpm pack` runs the `prepack` build and applies publishConfig.
    await runOk("pnpm", ["pack", "--pack-destination", dir], CLIENT);
    const tarball = await findTarball(dir);
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: "keyport-consumer",
        private: true,
        type: "module",
        dependencies: { "@keyport/client": `file:${tarball}`, viem: "2.57.20" },
        // The repository's compiler version, so peers resolve to it instead of a newer download.
        devDependencies: { typescript: "5.9.3" },
      }),
    );
    const store = (await runOk("pnpm", ["store", "path"], CLIENT)).trim();
    await runOk(
      "pnpm",
      [
        "install",
        "--prefer-offline",
        "--no-frozen-lockfile",
        "--config.confirmModulesPurge=false",
        "--store-dir",
        store,
      ],
      dir,
    );
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, include: ["main.ts"] }));
    await writeFile(join(dir, "tsconfig.wrong.json"), JSON.stringify({ ...TSCONFIG, include: ["wrong.ts"] }));
    await writeFile(join(dir, "main.ts"), mainScript(server.trpcUrl));
    await writeFile(join(dir, "wrong.ts"), WRONG_SCRIPT);
  }, SLOW);

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ships only dist, its README and LICENSE, with exports for types and import and no workspace links", async () => {
    const manifest: unknown = JSON.parse(
      await readFile(join(dir, "node_modules/@keyport/client/package.json"), "utf8"),
    );
    expect(manifest).toMatchObject({
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      files: ["dist", "README.md", "LICENSE"],
    });
    const text = JSON.stringify(manifest);
    expect(text).not.toContain("workspace:");
    expect(text).not.toContain("./src/");
    // Both bundles import npm dependencies only: the server's and proxy's parts are inlined or gone.
    const dependencies = Object.keys(
      typeof manifest === "object" && manifest !== null && "dependencies" in manifest && manifest.dependencies
        ? manifest.dependencies
        : {},
    );
    for (const file of ["dist/index.js", "dist/index.d.ts"]) {
      const bundle = await readFile(join(dir, "node_modules/@keyport/client", file), "utf8");
      const imported = [...bundle.matchAll(/\bfrom\s+["']([^"']+)["']/g)].map((match) => match[1]);
      expect(imported.length).toBeGreaterThan(0);
      for (const id of imported) {
        expect(
          dependencies.some((name) => id === name || id?.startsWith(`${name}/`)),
          `${file}: ${id}`,
        ).toBe(true);
      }
      expect(bundle).not.toMatch(/drizzle|pglite|postgres\.js|pino/i);
    }
  });

  it(
    "type-checks a strict script against the shipped declarations",
    async () => {
      await runOk("node", [TSC, "-p", "tsconfig.json"], dir, SLOW);
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
    "runs the compiled script against the server: signs in, creates and lists a key",
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
        notFound: "NOT_FOUND 404",
        badCoin: "BAD_REQUEST 400",
      });
    },
    SLOW,
  );
});
