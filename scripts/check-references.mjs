// `pnpm lint` runs this after biome: no source, script, test or bench file may point a reader at things the
// repository does not hold: the word "issue" followed by a number, the team's decisions file or API.md.
// Comments point at docs/ instead; an upstream bug is cited as owner/repo#N. Prints each offending line and exits 1.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WHERE = [
  "packages/*/src/*",
  "packages/*/scripts/*",
  "packages/*/test/*",
  "packages/*/e2e/*",
  "scripts/*",
  "bench/*",
];
const CODE = /\.(?:[cm]?[jt]sx?|css|html)$/;
const FORBIDDEN = [
  { pattern: /\bissues?\s*#?\s*\d+/i, why: "an issue number" },
  { pattern: /\bDECISIONS\b/, why: "DECISIONS (not in the repository)" },
  { pattern: /\bAPI\.md\b/, why: "API.md (not in the repository; docs/api.md is)" },
];
const SELF = "scripts/check-references.mjs";

const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...WHERE],
  {
    cwd: ROOT,
    encoding: "utf8",
  },
)
  .split("\n")
  .filter((file) => CODE.test(file) && file !== SELF);

let found = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(new URL(file, `file://${ROOT}`), "utf8");
  } catch {
    continue; // deleted in the work tree but still in the index
  }
  text.split("\n").forEach((line, index) => {
    for (const { pattern, why } of FORBIDDEN) {
      // API.md inside docs/api.md is a real path, not the missing file.
      if (pattern.test(line.replaceAll(/docs\/api\.md/gi, ""))) {
        console.log(`${file}:${index + 1}: ${why}: ${line.trim()}`);
        found++;
      }
    }
  });
}
if (found > 0) {
  console.log(`\n${found} reference(s) to things the repository does not hold: point at docs/ instead.`);
  process.exit(1);
}
