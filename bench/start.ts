import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./lib/child.js";

// Start figures: time to listening and memory of the server process that `pnpm start` runs
// (`node --enable-source-maps dist/main.js` in packages/server, default settings: embedded PGlite
// under DATA_DIR), on a fresh DATA_DIR and then on the same, existing one; and the dashboard
// proxy's memory after start. RSS counts the process and every descendant alive at that moment.
// Usage: pnpm exec tsx bench/start.ts [--runs 3] [--no-build]

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const NODE_ARGS = ["--enable-source-maps", "dist/main.js"];
const LISTENING = /listening on (http\S+)/;
const SETTLE_MS = 2_000;

interface StartFigure {
  /** From spawn to the "listening" log line. */
  listeningMs: number;
  /** User + system CPU of the process and its waited-for children (the init child) until then. */
  cpuMs: number;
  /** RSS of the process tree at the "listening" line and after settling, in MiB. */
  rssMb: number;
  settledRssMb: number;
  /** The process tree's RSS high-water mark until then (VmHWM of each), in MiB. */
  peakMb: number;
}

const CLOCK_TICKS_PER_SECOND = 100;

function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] === undefined ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

/** Sums `field` over `pid` and its descendants, in MiB. */
function treeMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const kb = (p: number): number => statusKb(p, field) + children(p).reduce((sum, c) => sum + kb(c), 0);
  return Math.round(kb(pid) / 1024);
}

function cpuMs(pid: number): number {
  // Fields after the command name: state is 3rd; utime, stime, cutime, cstime are the 14th-17th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + (fields[index] ?? 0), 0);
  return Math.round((ticks * 1000) / CLOCK_TICKS_PER_SECOND);
}

async function measure(packageDir: string, env: Record<string, string>): Promise<StartFigure> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, NODE_ARGS, {
    cwd: join(ROOT, packageDir),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${packageDir}`);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (LISTENING.test(output)) resolve();
    });
    void exited.then((code) => reject(new Error(`${packageDir} exited with ${code}:\n${output}`)));
  });
  const listeningMs = Math.round(performance.now() - started);
  const figure = {
    listeningMs,
    cpuMs: cpuMs(pid),
    rssMb: treeMb(pid, "VmRSS"),
    peakMb: treeMb(pid, "VmHWM"),
  };
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const settledRssMb = treeMb(pid, "VmRSS");
  child.kill("SIGTERM");
  const code = await exited;
  if (code !== 0) throw new Error(`${packageDir} stopped with exit code ${code}:\n${output}`);
  return { ...figure, settledRssMb };
}

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index === -1 ? undefined : Number(process.argv[index + 1]);
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

function row(label: string, figure: StartFigure): string {
  const cells = [
    label.padEnd(22),
    `${(figure.listeningMs / 1000).toFixed(1)} s`.padStart(8),
    `${(figure.cpuMs / 1000).toFixed(1)} s`.padStart(8),
    `${figure.rssMb} MB`.padStart(8),
    `${figure.settledRssMb} MB`.padStart(8),
    `${figure.peakMb} MB`.padStart(8),
  ];
  return cells.join("  ");
}

async function main(): Promise<void> {
  const runs = option("--runs", 3);
  if (!process.argv.includes("--no-build")) {
    const build = spawnSync(
      "pnpm",
      ["--silent", "--filter", "@keyport/server", "--filter", "@keyport/dashboard-proxy", "run", "build"],
      { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
    );
    if (build.status !== 0) throw new Error("build failed");
  }
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(1));
  console.log(`node ${process.version}, ${cpus().length} CPUs, load average ${one} ${five} ${fifteen}`);
  console.log(`${"".padEnd(22)}  listening      CPU  RSS then  settled  peak (the tree's VmHWM)`);
  for (let run = 1; run <= runs; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), "keyport-start-"));
    try {
      console.log(row(`server, fresh #${run}`, await measure("packages/server", { DATA_DIR: dataDir })));
      console.log(row(`server, existing #${run}`, await measure("packages/server", { DATA_DIR: dataDir })));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(row("dashboard proxy", await measure("packages/dashboard-proxy", {})));
}

await main();
