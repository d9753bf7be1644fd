// Preloaded into a server by bench/memory.ts (`NODE_OPTIONS=--import <this file>`): on SIGUSR2 it
// writes the process's memory split to $MEMORY_PROBE_OUT, before and after two full collections,
// and its largest resident mappings.
import { readFileSync, writeFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc");
const mb = (bytes) => Math.round((bytes / 1_048_576) * 10) / 10;

function statusMb(status, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
}

function split() {
  const usage = process.memoryUsage();
  const status = readFileSync("/proc/self/status", "utf8");
  const spaces = {};
  for (const space of v8.getHeapSpaceStatistics()) spaces[space.space_name] = mb(space.space_size);
  return {
    rss: mb(usage.rss),
    rssAnon: statusMb(status, "RssAnon"),
    rssFile: statusMb(status, "RssFile"),
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    newSpace: spaces.new_space,
    oldSpace: spaces.old_space,
  };
}

/**
 * The largest resident mappings of /proc/self/smaps, in MB: where RSS lives beyond V8's heap (the
 * embedded database's WebAssembly memory, the C allocator's arenas, the `node` binary).
 */
function mappings(limit = 10) {
  const rows = [];
  let current;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / 1_048_576;
      current = { name: head[4] || "[anon]", perm: head[3], size: Math.round(size * 10) / 10, rss: 0 };
      rows.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Math.round((Number(rss[1]) / 1024) * 10) / 10;
  }
  return rows.sort((a, b) => b.rss - a.rss).slice(0, limit);
}

process.on("SIGUSR2", () => {
  const before = split();
  collect();
  collect();
  writeFileSync(
    process.env.MEMORY_PROBE_OUT ?? "/dev/null",
    JSON.stringify({ before, after: split(), mappings: mappings() }),
  );
});
