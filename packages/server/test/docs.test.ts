import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { instrument, shellBlocks } from "./support/doc-script.js";
import { compareToSketch, firstSketchText, parseSketch } from "./support/doc-sketch.js";

// Keeps the project's docs honest: the README stays short, and no link in the README or docs/ points
// at a file or a heading that is not there (pages move; links rot silently otherwise).

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PAGES = [
  "README.md",
  "packages/client/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks and inline code, where `[x](y)` and `#` are Markdown. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats suffixed -1, -2... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = (match[1] ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .trim()
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function relativeLinks(page: string): string[] {
  const links = [...prose(readFileSync(join(ROOT, page), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)];
  return links.map((match) => match[1] ?? "").filter((target) => !/^[a-z]+:/i.test(target));
}

describe("project docs", () => {
  it("keeps the README at 200 lines or fewer", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(200);
  });

  it("links the README to every page in docs/", () => {
    const linked = new Set(relativeLinks("README.md"));
    const pages = PAGES.filter((page) => page.startsWith("docs/"));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it.each(PAGES)("%s links only to files and headings that exist", (page) => {
    const broken: string[] = [];
    for (const target of relativeLinks(page)) {
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
      const name = relative(ROOT, file);
      if (name.startsWith("..") || !existsSync(file)) {
        broken.push(`${target}: no file ${name} in the repository`);
      } else if (anchor !== undefined && !statSync(file).isFile()) {
        broken.push(`${target}: an anchor on a folder`);
      } else if (anchor !== undefined && !anchorsOf(readFileSync(file, "utf8")).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${name}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("names in the README only root scripts and files that exist", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const { scripts } = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
    const commands = [
      ...readme.matchAll(/^(?:npx -y pnpm@[\d.]+ install && npx -y )?pnpm(?:@[\d.]+)? ([\w:]+)/gm),
    ];
    const missing = commands.map((match) => match[1] ?? "").filter((name) => !(name in scripts));
    expect(missing).toEqual([]);
    for (const match of readme.matchAll(/^bash (\S+)/gm))
      expect(existsSync(join(ROOT, match[1] ?? ""))).toBe(true);
  });

  it.each(PAGES)("%s sends every curl to Keyport at $KEYPORT_URL, never a hard-coded port", (page) => {
    const curls = shellBlocks(readFileSync(join(ROOT, page), "utf8"))
      .flatMap((block) => block.split("\n"))
      .filter((line) => /^\s*(?:[A-Z_]+=\$\()?curl /.test(line));
    // Keyport's own port, or a variable of another name for its address.
    const hardCoded = curls.filter((line) =>
      /(?:localhost|127\.0\.0\.1):3000|\$\{?KEYPORT(?!_URL)\b/.test(line),
    );
    expect(hardCoded).toEqual([]);
  });

  it.each(PAGES)("%s shows answers in its commands' comments as readable sketches", (page) => {
    const { units } = instrument(shellBlocks(readFileSync(join(ROOT, page), "utf8")));
    for (const unit of units) {
      const sketch = firstSketchText(unit.answer ?? unit.comment);
      if (sketch !== undefined) expect(() => parseSketch(sketch), unit.comment).not.toThrow();
    }
  });

  it("holds a comment's sketch to an answer: complete unless it elides, strings by their prefix", () => {
    const sketch = parseSketch(
      '{"keys":[...],"nextCursor":null,"apiKey":{...,"status":"revoked"},"key":"kp_..."}',
    );
    const answer = { keys: [1], nextCursor: null, apiKey: { id: "key_1", status: "revoked" }, key: "kp_abc" };
    expect(compareToSketch(answer, sketch)).toEqual([]);
    expect(compareToSketch({ ...answer, total: 1 }, sketch)).toEqual([
      "$.total: in the answer, not in the docs",
    ]);
    expect(compareToSketch({ ...answer, key: "kps_abc", nextCursor: "c" }, sketch)).toEqual([
      '$.nextCursor: "c", the docs say null',
      '$.key: "kps_abc" is not "kp_..."',
    ]);
    expect(firstSketchText('4. Create: 201 {"key":"kp_...","apiKey":{...}}, with {"a":1}')).toBe(
      '{"key":"kp_...","apiKey":{...}}',
    );
  });

  it("ships the client tarball with the project's LICENSE", () => {
    const license = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(license).toContain("Copyright (c) 2026 The Keyport authors");
    expect(readFileSync(join(ROOT, "packages/client/LICENSE"), "utf8")).toBe(license);
  });
});
