import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

// `tsx bench/profile.ts <file.cpuprofile | dir> [--top N]`: summarises V8 CPU profiles written by
// `pnpm bench -- --cpu-prof <dir>`: self time by function, by file and by package, as shares of
// busy samples (idle excluded, GC and program included), plus inclusive time (self + callees).
// `--last S` keeps only the last S seconds (the bench measures last, then stops the server), so
// start-up and setup (module loading, sign-ins) stay out of the figures.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

function isProfile(value: unknown): value is Profile {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray(Reflect.get(value, "nodes")) &&
    Array.isArray(Reflect.get(value, "samples"))
  );
}

function files(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => join(target, name));
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf("node_modules/");
  if (modules !== -1) return url.slice(modules + "node_modules/".length);
  const packages = url.indexOf("/packages/");
  if (packages !== -1) return url.slice(packages + 1);
  return url.replace(/^file:\/\//, "") || "(native)";
}

function packageOf(url: string): string {
  const modules = url.lastIndexOf("node_modules/");
  if (modules !== -1) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
  }
  const ours = /\/packages\/([^/]+)\//.exec(url);
  if (ours) return `@keyport/${ours[1]}`;
  if (url.startsWith("node:")) return "node core";
  return url === "" ? "(native/V8)" : url;
}

function top(counts: Map<string, number>, total: number, n: number): string[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, count]) => `${((100 * count) / total).toFixed(1).padStart(5)}%  ${name}`);
}

function summarise(path: string, n: number, lastSeconds: number | undefined): void {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isProfile(parsed)) throw new Error(`${path} is not a V8 CPU profile`);
  const byId = new Map(parsed.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of parsed.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const label = (frame: CallFrame) =>
    `${frame.functionName || "(anonymous)"}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  const fileCounts = new Map<string, number>();
  const packages = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  let busy = 0;
  const deltas = parsed.timeDeltas ?? [];
  let at = parsed.startTime;
  const cutoff = lastSeconds === undefined ? Number.NEGATIVE_INFINITY : parsed.endTime - lastSeconds * 1e6;
  for (const [index, id] of parsed.samples.entries()) {
    at += deltas[index] ?? 0;
    if (at < cutoff) continue;
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined || frame.functionName === "(idle)") continue;
    busy++;
    const url = shortUrl(frame.url);
    add(functions, label(frame));
    // Each function on the stack once per sample, however deep the recursion.
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node)) {
      const onStack = byId.get(node)?.callFrame;
      if (onStack === undefined || onStack.functionName === "(root)") continue;
      const name = label(onStack);
      if (!seen.has(name)) {
        seen.add(name);
        add(inclusive, name);
      }
    }
    add(fileCounts, url);
    add(packages, frame.functionName.startsWith("(") ? frame.functionName : packageOf(frame.url));
  }
  const total = busy;
  const seconds = (parsed.endTime - parsed.startTime) / 1e6;
  process.stdout.write(
    [
      `== ${path} (${parsed.samples.length} samples over ${seconds.toFixed(1)} s, ${busy} busy; shares are of busy)`,
      "-- self time by package",
      ...top(packages, total, n),
      "-- self time by file",
      ...top(fileCounts, total, n),
      "-- self time by function",
      ...top(functions, total, n),
      "-- inclusive time by function (self + callees)",
      ...top(inclusive, total, n),
      "",
    ].join("\n"),
  );
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = Number(args[index + 1]);
  args.splice(index, 2);
  return value;
};
const n = flag("--top") ?? 25;
const lastSeconds = flag("--last");
const targets = args;
if (targets.length === 0) {
  process.stderr.write("usage: tsx bench/profile.ts <file.cpuprofile | dir> [--top N] [--last S]\n");
  process.exit(2);
}
for (const target of targets) for (const path of files(target)) summarise(path, n, lastSeconds);
