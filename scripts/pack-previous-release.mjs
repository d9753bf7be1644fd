// `node scripts/pack-previous-release.mjs <git ref>`: packs @keyport/verify as it was at a release (a tag
// or a commit) into packages/verify/test/fixtures/, where the slow tier's previous-release test installs it
// and has it verify keys against today's server (docs/upgrading.md: verification answers only grow).
// Run it after each release, with that release's tag (docs/releasing.md). The tree at <ref> is exported
// with `git archive` into a temporary folder (no worktree, no checkout), installed from pnpm's store and
// packed with `pnpm pack`, exactly as `pnpm pack:public` packs today's package.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "packages/verify/test/fixtures");
const ref = process.argv[2];
if (!ref) {
  process.stderr.write("usage: node scripts/pack-previous-release.mjs <tag or commit of the release>\n");
  process.exit(2);
}

/** Runs a command, its output on this process's stderr; exits on failure. */
function run(command, args, cwd, input) {
  const result = spawnSync(command, args, {
    cwd,
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "inherit"],
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stderr.write(`pack-previous-release: ${command} ${args.join(" ")} failed\n`);
    process.exit(1);
  }
  return result.stdout;
}

const commit = run("git", ["rev-parse", "--verify", `${ref}^{commit}`], ROOT)
  .toString()
  .trim();
const work = mkdtempSync(join(tmpdir(), "keyport-previous-release-"));
try {
  run("tar", ["-x", "-C", work], ROOT, run("git", ["archive", "--format=tar", commit], ROOT));
  const manifest = JSON.parse(readFileSync(join(work, "packages/verify/package.json"), "utf8"));
  process.stderr.write(`packing @keyport/verify@${manifest.version} from ${commit}...\n`);
  run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--filter", "@keyport/verify..."], work);
  const packed = join(work, "packed");
  run("pnpm", ["pack", "--pack-destination", packed], join(work, "packages/verify"));
  mkdirSync(FIXTURES, { recursive: true });
  copyFileSync(
    join(packed, `keyport-verify-${manifest.version}.tgz`),
    join(FIXTURES, "keyport-verify-previous.tgz"),
  );
  writeFileSync(
    join(FIXTURES, "previous-release.json"),
    `${JSON.stringify({ package: "@keyport/verify", version: manifest.version, commit }, null, 2)}\n`,
  );
  process.stdout.write(
    `packages/verify/test/fixtures/keyport-verify-previous.tgz: @keyport/verify@${manifest.version}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
