import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as root from "../index.js";
import * as schemas from "./index.js";

/** Every module specifier `file` imports or re-exports, followed through relative imports. */
function importGraph(file: URL, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file.href)) return seen;
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1] ?? "");
  seen.set(file.href, specifiers);
  for (const specifier of specifiers) {
    if (specifier.startsWith(".")) importGraph(new URL(specifier.replace(/\.js$/, ".ts"), file), seen);
  }
  return seen;
}

describe("@keyport/dashboard-proxy/schemas", () => {
  it("pulls in zod and nothing else outside the package (no h3, no pino)", () => {
    const graph = importGraph(new URL("./index.ts", import.meta.url));
    const bare = [...graph.values()].flat().filter((specifier) => !specifier.startsWith("."));
    expect(new Set(bare)).toEqual(new Set(["zod"]));
  });

  it("exports the same schemas and constants as the package root", () => {
    for (const [name, value] of Object.entries(schemas)) expect(root).toHaveProperty(name, value);
  });
});
