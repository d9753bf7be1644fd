// Preloaded into a server by bench/memory.ts (`NODE_OPTIONS=--import <this file>`): on SIGUSR2 it
// writes the process's memory split to $MEMORY_PROBE_OUT, before and after two full collections.
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

process.on("SIGUSR2", () => {
  const before = split();
  collect();
  collect();
  writeFileSync(process.env.MEMORY_PROBE_OUT ?? "/dev/null", JSON.stringify({ before, after: split() }));
});
