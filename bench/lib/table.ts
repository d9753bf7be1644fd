import type { Machine } from "./machine.js";
import type { ScenarioResult } from "./result.js";

const fmt = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value) ? "-" : value.toFixed(digits);

const latency = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value)
    ? "-"
    : value.toFixed(Number.isInteger(value) ? 0 : 2);

function verdict(result: ScenarioResult): string {
  if (result.status !== "measured") return result.status;
  if (result.pass === null) return "-";
  return result.pass ? "PASS" : "MISS";
}

/** The results as a Markdown table (the same text goes to the terminal and docs/benchmarks.md). */
export function renderTable(results: readonly ScenarioResult[], machine: Machine): string {
  const header = [
    "scenario",
    "db",
    "req/s",
    "p50 ms",
    "p99 ms",
    "baseline req/s",
    "baseline p50/p99 ms",
    "ratio",
    "target",
    "result",
    "RSS MB",
  ];
  const rows = results.map((r) => [
    r.name,
    r.database ?? "-",
    fmt(r.scenario?.rps),
    latency(r.scenario?.p50),
    latency(r.scenario?.p99),
    fmt(r.baseline?.rps),
    r.baseline ? `${latency(r.baseline.p50)} / ${latency(r.baseline.p99)}` : "-",
    r.overheadMs !== null ? `+${r.overheadMs.toFixed(2)} ms` : fmt(r.ratio, 2),
    r.target,
    verdict(r),
    r.rssMb === null ? "-" : `${r.rssMb.toFixed(0)} ${r.rssPass ? "PASS" : "MISS"} (< ${r.rssLimitMb})`,
  ]);
  const lines = [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`);
  const notes = results
    .filter((r) => r.note !== null)
    .map((r) => `- ${r.name}${r.database ? ` [${r.database}]` : ""}: ${r.note}`);
  return [
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}, ${machine.date}`,
    "",
    ...lines,
    ...(notes.length > 0 ? ["", ...notes] : []),
  ].join("\n");
}
