// `pnpm pack:public` at the root: builds and packs the two published packages, @keyport/client and
// @keyport/verify, into <repository>/packed (or the folder given as the first argument), as npm would
// publish them, so a project outside this repository can `npm install` a tarball before (or without)
// a release on npm. `pnpm pack` runs each package's `prepack` build, applies its publishConfig and the
// root .pnpmfile.cjs's beforePacking, as the consumer tests (packages/*/test/consumer.test.ts) do.
// Usage: node scripts/pack-public.mjs [destination]
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The packages published to npm; every other workspace package is private. */
const PUBLIC_PACKAGES = ["packages/client", "packages/verify"];
const destination = resolve(process.argv[2] ?? join(ROOT, "packed"));
mkdirSync(destination, { recursive: true });

const tarballs = PUBLIC_PACKAGES.map((dir) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8"));
  process.stdout.write(`packing ${manifest.name}@${manifest.version}...\n`);
  const result = spawnSync("pnpm", ["pack", "--pack-destination", destination], {
    cwd: join(ROOT, dir),
    stdio: ["ignore", "ignore", "inherit"],
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    process.stderr.write(`pack:public: packing ${manifest.name} failed (see above)\n`);
    process.exit(1);
  }
  // npm's tarball name: the scope's @ dropped and its / made a dash.
  return join(destination, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`);
});

process.stdout.write(
  `\n${tarballs.join("\n")}\n\nInstall one in your project with npm install <path>, e.g.\n  npm install ${tarballs[1]}\n`,
);
