import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { freePort, type ServerChild, startChild } from "./lib/child.js";
import { createDatabaseFactory } from "./lib/databases.js";
import { createKey, signIn } from "./lib/keyport.js";
import { startBenchServer } from "./lib/servers.js";

// `npx tsx bench/cpu-per-request.ts [--requests 20000] [--rounds 3] [--db pglite|postgres]
// [--entry dist/main.js] [--against <entry>[,<entry>…]] [--only REST|tRPC|bare[,…]] [--cpu-prof <dir>]
// [--pin] [--together] [--each-round]`, after `pnpm -r build`.
// CPU time a server process spends per request (utime + stime from /proc/<pid>/stat over a fixed
// number of keep-alive requests), for bare `node:http` answering a verification-shaped constant
// and for Keyport verifying one cached plain key over REST and over tRPC. A throughput ratio
// swings with whatever else runs on a shared machine; a process's CPU per request barely does, so
// this is the figure to compare changes of a few µs by. `--against` names a second build of the
// server (an entry under packages/server, e.g. a copy of dist/ taken before a change) measured in
// the same rounds. Each contestant runs in its own child; the load comes from this process.
// `--pin` (Linux, taskset) keeps the load on the first CPU and every server on the last, so the
// scheduler's placement, which moves a figure by 10-15% between two runs of one build on 2 cores,
// is the same for every contestant. `--together` loads every contestant at once (one a server), so
// each round's figures are taken under the same conditions. `--each-round` also prints every
// round's figures and each contestant's lowest (to stderr).

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    warmup: { type: "string", default: "4000" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    db: { type: "string", default: "pglite" },
    postgres: {
      type: "string",
      default: process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    entry: { type: "string", default: "dist/main.js" },
    against: { type: "string" },
    "cpu-prof": { type: "string" },
    pin: { type: "boolean", default: false },
    together: { type: "boolean", default: false },
    "each-round": { type: "boolean", default: false },
    only: { type: "string" },
  },
});

const REQUESTS = Number(values.requests);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const SERVER_DIR = fileURLToPath(new URL("../packages/server/", import.meta.url));
// /proc/<pid>/stat counts in clock ticks of 1/100 s on Linux (USER_HZ).
const TICK_US = 10_000;

/**
 * CPU time of `pid` so far, in µs: `main` is its main thread's (where JavaScript runs, from
 * /proc/<pid>/schedstat in ns), `total` every thread's user + system time (in clock ticks).
 */
function cpuMicros(pid: number): { main: number; total: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at field 3: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const main = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1_000;
  return { main, total: (Number(fields[11]) + Number(fields[12])) * TICK_US };
}

interface Contestant {
  name: string;
  pid: number;
  url: string;
  body: string;
  /** Text every answer must contain. */
  expect: string;
}

async function send(contestant: Contestant, amount: number): Promise<void> {
  const result = await autocannon({
    url: contestant.url,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    requests: [{ method: "POST", headers: { "content-type": "application/json" }, body: contestant.body }],
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${contestant.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

async function check(contestant: Contestant): Promise<void> {
  const response = await fetch(contestant.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: contestant.body,
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes(contestant.expect)) {
    throw new Error(`${contestant.name} answered ${response.status}: ${text.slice(0, 200)}`);
  }
}

async function startServer(entry: string, name: string, env: Record<string, string>): Promise<ServerChild> {
  const port = await freePort();
  return startChild({
    name,
    entry,
    cwd: SERVER_DIR,
    env: { PORT: String(port), LOG_LEVEL: "info", NONCE_RATE_LIMIT: "off", ...env },
    port,
    healthPath: "/healthz",
    cpuProfDir: values["cpu-prof"],
  });
}

/** Binds every thread of `pid` to one CPU (`--pin`). */
function pin(pid: number, cpu: number): void {
  if (values.pin) execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { stdio: "ignore" });
}
const LAST_CPU = cpus().length - 1;
pin(process.pid, 0);

const BARE = "bare node:http";
const databases = createDatabaseFactory(values.postgres);
const children: ServerChild[] = [];
try {
  const bare = await startBenchServer("bare-http", {
    cpuProfDir: values["cpu-prof"],
    logLevel: "info",
    tree: undefined,
  });
  children.push(bare);
  pin(bare.pid, LAST_CPU);
  const contestants: Contestant[] = [
    { name: BARE, pid: bare.pid, url: bare.url, body: '{"key":"x"}', expect: "VALID" },
  ];
  const entries = [values.entry, ...(values.against?.split(",") ?? [])];
  for (const entry of entries) {
    const database = await databases.create(values.db === "postgres" ? "postgres" : "pglite");
    const env: Record<string, string> =
      database.kind === "postgres"
        ? { DATABASE_URL: database.url, WEBHOOKS_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") }
        : { DATA_DIR: database.dir };
    const server = await startServer(entry, `keyport-${entry.replace(/\W+/g, "-")}`, env);
    children.push(server);
    pin(server.pid, LAST_CPU);
    const session = await signIn(server.url);
    const { secret } = await createKey(server.url, session, "cpu per request");
    contestants.push(
      {
        name: `REST verify (${entry})`,
        pid: server.pid,
        url: `${server.url}/api-keys/verify`,
        body: JSON.stringify({ key: secret }),
        expect: '"VALID"',
      },
      {
        name: `tRPC verify (${entry})`,
        pid: server.pid,
        url: `${server.url}/trpc/keys.verify`,
        body: JSON.stringify({ json: { key: secret } }),
        expect: '"VALID"',
      },
    );
  }
  if (values.only !== undefined) {
    // e.g. `--only REST` with `--cpu-prof`: the server's profile then holds that load alone.
    const only = values.only;
    contestants.splice(
      0,
      contestants.length,
      ...contestants.filter((c) => only.split(",").some((name) => c.name.startsWith(name))),
    );
  }
  // Per contestant and round: µs a request of every thread and of the main thread, and the main
  // thread's over bare node:http's in the same round (what a shared machine's load inflates, it
  // inflates for both: the paired ratio is the steadier figure).
  const figures = new Map<string, { total: number[]; main: number[]; ratio: number[] }>(
    contestants.map((c) => [c.name, { total: [], main: [], ratio: [] }]),
  );
  if (values.together && new Set(contestants.map((c) => c.pid)).size < contestants.length) {
    throw new Error("--together needs one contestant a server: add --only REST or --only tRPC");
  }
  for (const contestant of contestants) await check(contestant);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with a different contestant, as the bench alternates.
    const order = contestants.map((_, i) => contestants[(i + round) % contestants.length]);
    const mains = new Map<string, number>();
    const measure = async (group: Contestant[]) => {
      await Promise.all(group.map((contestant) => send(contestant, WARMUP)));
      const before = group.map((contestant) => cpuMicros(contestant.pid));
      await Promise.all(group.map((contestant) => send(contestant, REQUESTS)));
      group.forEach((contestant, i) => {
        const after = cpuMicros(contestant.pid);
        const figure = figures.get(contestant.name);
        const main = (after.main - (before[i]?.main ?? 0)) / REQUESTS;
        mains.set(contestant.name, main);
        figure?.total.push((after.total - (before[i]?.total ?? 0)) / REQUESTS);
        figure?.main.push(main);
      });
    };
    if (values.together) await measure(contestants);
    else for (const contestant of order) if (contestant !== undefined) await measure([contestant]);
    if (values["each-round"])
      process.stderr.write(
        `round ${round}: ${[...mains].map(([n, m]) => `${n} ${m.toFixed(1)}`).join(", ")}\n`,
      );
    const bareMain = mains.get(BARE);
    for (const [name, main] of mains) {
      if (bareMain !== undefined) figures.get(name)?.ratio.push(main / bareMain);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  if (values["each-round"])
    for (const [name, { main }] of figures)
      process.stderr.write(
        `${name}: min ${Math.min(...main).toFixed(1)} median ${median(main).toFixed(1)}\n`,
      );
  const fixed = (x: number, digits = 1) => x.toFixed(digits).padStart(7);
  process.stdout.write(
    `CPU per request (${REQUESTS} requests, ${CONNECTIONS} connections, ${ROUNDS} rounds, ${values.db}), medians of rounds\n` +
      `${"".padEnd(36)}  all threads µs  main thread µs  main / bare's\n`,
  );
  for (const [name, { total, main, ratio }] of figures) {
    process.stdout.write(
      `${name.padEnd(36)}  ${fixed(median(total))}         ${fixed(median(main))}         ${ratio.length > 0 ? fixed(median(ratio), 2) : "      -"}\n`,
    );
  }
} finally {
  for (const child of children.reverse()) await child.stop();
  await databases.dropAll();
}
