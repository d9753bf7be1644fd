import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runOk } from "@keyport/test-support/consumer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `pnpm pack:public` (scripts/pack-public.mjs) is how docs/backend.md and the dashboard's key-created
// dialog tell people to get @keyport/verify before it is on npm: each tarball it writes must hold every
// file its package.json's `exports` promise, with the README, CHANGELOG and LICENSE, and nothing else.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SLOW = 240_000;

let dir: string;
let tarballs: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "keyport-pack-public-"));
  await runOk("node", [join(ROOT, "scripts/pack-public.mjs"), dir], ROOT, SLOW);
  tarballs = (await readdir(dir)).filter((name) => name.endsWith(".tgz")).sort();
}, SLOW);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The paths in a tarball, relative to its `package/` folder. */
async function filesOf(tarball: string): Promise<string[]> {
  const listing = await runOk("tar", ["-tzf", join(dir, tarball)], dir);
  return listing
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/^package\//, ""));
}

/** Every file an `exports` map points at, whatever its conditions' nesting. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports.replace(/^\.\//, "")];
  if (typeof exports !== "object" || exports === null) return [];
  return Object.values(exports).flatMap(exportTargets);
}

describe("pnpm pack:public", () => {
  it("writes one tarball for each published package, and none for a private one", async () => {
    const expected = await Promise.all(
      ["client", "verify"].map(async (name) => {
        const manifest = JSON.parse(await readFile(join(ROOT, "packages", name, "package.json"), "utf8"));
        return `keyport-${name}-${String(manifest.version)}.tgz`;
      }),
    );
    expect(tarballs).toEqual(expected);
  });

  it("puts in each tarball every file its exports promise, its README, CHANGELOG and LICENSE, and no source", async () => {
    for (const tarball of tarballs) {
      const files = await filesOf(tarball);
      const manifest = JSON.parse(
        await runOk("tar", ["-xzOf", join(dir, tarball), "package/package.json"], dir),
      ) as { exports: unknown };
      const targets = exportTargets(manifest.exports);
      expect(targets.length, tarball).toBeGreaterThan(0);
      for (const target of targets) expect(files, `${tarball}: ${target}`).toContain(target);
      expect(files).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "LICENSE", "package.json"]));
      expect(
        files.filter((file) => /^(src|test)\//.test(file) || /\.test\./.test(file)),
        tarball,
      ).toEqual([]);
      expect(JSON.stringify(manifest.exports), tarball).not.toContain("./src/");
    }
  });
});
