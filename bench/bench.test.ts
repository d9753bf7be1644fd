import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseOptions } from "./lib/options.js";
import { judge, summarize } from "./lib/result.js";
import { median, percentile } from "./lib/stats.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** `value[key]` for parsed JSON, undefined when `value` is not an object. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

describe("pnpm bench smoke run (one short round of the cached price scenario)", () => {
  let dir: string;
  let stdout: string;
  let results: unknown;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "keyport-bench-test-"));
    const out = join(dir, "results.json");
    stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [
          "--import",
          "tsx",
          "bench/run.ts",
          "--quick",
          "--only",
          "proxy-prices",
          "--duration",
          "0.5",
          "--out",
          out,
        ],
        { cwd: ROOT, timeout: 110_000 },
        (error, output, errors) =>
          error ? reject(new Error(`${error.message}\n${errors}`)) : resolve(output),
      );
    });
    results = JSON.parse(await readFile(out, "utf8"));
  }, 120_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints a Markdown table with the machine and one row per scenario", () => {
    expect(stdout).toMatch(/^Machine: .+, \d+ cores, .*Node v\d+/m);
    expect(stdout).toContain("| scenario | db | req/s | p50 ms | p99 ms |");
    expect(stdout).toMatch(/^\| proxy-prices \| - \| \d+ \|/m);
    // The RSS cell carries its verdict and the limit it was judged against.
    expect(stdout).toMatch(/^\| proxy-prices \|.*\| \d+ (PASS|MISS) \(< 200\) \|$/m);
  });

  it("writes results.json with the machine, settings and measured req/s, latencies, ratio and verdicts", () => {
    expect(results).toMatchObject({
      machine: { cpuModel: expect.any(String), cores: expect.any(Number), node: process.version },
      settings: { rounds: 1, quick: true },
      results: [
        {
          name: "proxy-prices",
          status: "measured",
          scenario: { rps: expect.any(Number), p50: expect.any(Number), p99: expect.any(Number) },
          baseline: { rps: expect.any(Number), p50: expect.any(Number), p99: expect.any(Number) },
          ratio: expect.any(Number),
          target: "ratio >= 0.7",
          pass: expect.any(Boolean),
          rssMb: expect.any(Number),
          rssLimitMb: 200,
          rssPass: expect.any(Boolean),
        },
      ],
    });
    const row = field(field(results, "results"), "0");
    expect(field(field(row, "scenario"), "rps")).toBeGreaterThan(0);
    expect(field(field(row, "baseline"), "rps")).toBeGreaterThan(0);
  });
});

/** Runs `pnpm bench` with `args` (plus `--out`); resolves with its stdout and parsed results.json. */
async function runBench(args: readonly string[]): Promise<{ stdout: string; results: unknown }> {
  const dir = await mkdtemp(join(tmpdir(), "keyport-bench-test-"));
  try {
    const out = join(dir, "results.json");
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "bench/run.ts", ...args, "--out", out],
        { cwd: ROOT, timeout: 170_000 },
        (error, output, errors) =>
          error ? reject(new Error(`${error.message}\n${errors}`)) : resolve(output),
      );
    });
    return { stdout, results: JSON.parse(await readFile(out, "utf8")) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("pnpm bench smoke run of the verification rows judged against other rows (PostgreSQL, Redis)", () => {
  let stdout: string;
  let rows: unknown[];

  beforeAll(async () => {
    const run = await runBench([
      "--quick",
      "--only",
      "verify-trpc,verify-credits-redis",
      "--db",
      "postgres",
      "--duration",
      "0.5",
    ]);
    stdout = run.stdout;
    const results = field(run.results, "results");
    rows = Array.isArray(results) ? results : [];
  }, 180_000);

  /** The measured row of `name`, its baseline's req/s and its target. */
  function row(name: string): unknown {
    return rows.find((candidate) => field(candidate, "name") === name);
  }

  it("judges tRPC against bare node:http and against REST in the same run, each with its baseline's req/s", () => {
    for (const [name, target] of [
      ["verify-trpc", "ratio >= 0.5"],
      ["verify-trpc-vs-rest", "ratio >= 0.6"],
    ] as const) {
      expect(row(name)).toMatchObject({
        database: "postgres",
        status: "measured",
        scenario: { rps: expect.any(Number) },
        baseline: { rps: expect.any(Number) },
        ratio: expect.any(Number),
        target,
      });
      expect(stdout).toMatch(
        new RegExp(`^\\| ${name} \\| postgres \\| \\d+ \\| [\\d.]+ \\| [\\d.]+ \\| \\d+ \\|`, "m"),
      );
    }
    expect(field(field(row("verify-trpc-vs-rest"), "baseline"), "name")).toMatch(/REST verify, plain key/);
    expect(field(field(row("verify-trpc"), "baseline"), "name")).toMatch(/bare node:http/);
  });

  it("judges a credits key on a server with REDIS_URL against a plain key on that server, with its RSS", () => {
    expect(row("verify-credits-redis")).toMatchObject({
      database: "postgres",
      status: "measured",
      scenario: { rps: expect.any(Number) },
      baseline: { rps: expect.any(Number), name: expect.stringMatching(/REDIS_URL, plain key/) },
      ratio: expect.any(Number),
      target: "ratio >= 0.7",
      rssMb: expect.any(Number),
      rssLimitMb: 200,
    });
  });
});

describe("pnpm bench smoke run of webhook-delivery (PostgreSQL)", () => {
  let stdout: string;
  let row: unknown;

  beforeAll(async () => {
    const run = await runBench([
      "--quick",
      "--only",
      "webhook-delivery",
      "--db",
      "postgres",
      "--duration",
      "0.5",
    ]);
    stdout = run.stdout;
    const results = field(run.results, "results");
    row = Array.isArray(results) ? results[0] : undefined;
  }, 180_000);

  it("reports changes/s as the baseline, deliveries/s and their lag as the scenario, and whether it keeps up", () => {
    expect(row).toMatchObject({
      name: "webhook-delivery",
      database: "postgres",
      status: "measured",
      scenario: { rps: expect.any(Number), p50: expect.any(Number), p99: expect.any(Number), failures: 0 },
      baseline: { rps: expect.any(Number), failures: 0 },
      ratio: expect.any(Number),
      target: "reported: keeps up = ratio >= 0.95, drained < 2 s",
      pass: null,
      rssMb: expect.any(Number),
    });
    expect(field(field(row, "scenario"), "rps")).toBeGreaterThan(0);
    expect(field(row, "note")).toMatch(
      /deliveries at \d+\/s, lag p50 \d+ ms, p95 \d+ ms, max \d+ ms, backlog drained [\d.]+ s after the load, .*keeps up: (yes|no)/,
    );
    expect(stdout).toMatch(/^\| webhook-delivery \| postgres \| \d+ \| [\d.]+ \| [\d.]+ \| \d+ \|/m);
  });
});

describe("bench building blocks", () => {
  it("takes the median of the rounds and nearest-rank percentiles", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 99)).toBe(5);
  });

  it("judges a ratio target on median req/s and fails a run with failed requests", () => {
    const round = (rps: number, failures = 0) => ({
      rps,
      p50: 1,
      p99: 2,
      ok: 1,
      non2xx: failures,
      errors: 0,
    });
    const base = summarize("base", [round(100), round(120), round(110)]);
    const good = summarize("s", [round(60), round(50), round(70)]);
    expect(
      judge({
        name: "s",
        database: null,
        target: { kind: "ratio", min: 0.5 },
        scenario: good,
        baseline: base,
        rssMb: 50,
      }),
    ).toMatchObject({ ratio: 60 / 110, pass: true, rssPass: true });
    const failing = summarize("s", [round(60, 3), round(60), round(60)]);
    expect(
      judge({
        name: "s",
        database: null,
        target: { kind: "ratio", min: 0.5 },
        scenario: failing,
        baseline: base,
        rssMb: 250,
      }),
    ).toMatchObject({ pass: false, rssPass: false });
  });

  it("judges RSS under 200 MB on PostgreSQL and under 250 MB on the embedded database", () => {
    const one = summarize("s", [{ rps: 10, p50: 1, p99: 2, ok: 1, non2xx: 0, errors: 0 }]);
    const at = (database: "pglite" | "postgres", rssMb: number) =>
      judge({
        name: "s",
        database,
        target: { kind: "ratio", min: 0.5 },
        scenario: one,
        baseline: one,
        rssMb,
      });
    expect(at("postgres", 220)).toMatchObject({ rssLimitMb: 200, rssPass: false });
    expect(at("pglite", 220)).toMatchObject({ rssLimitMb: 250, rssPass: true });
    expect(at("pglite", 260)).toMatchObject({ rssPass: false });
  });

  it("turns --quick into one short round and --only into a prefix filter", () => {
    const options = parseOptions(["--", "--quick", "--only", "verify,keys-list"], {});
    expect(options).toMatchObject({ rounds: 1, quick: true, only: ["verify", "keys-list"] });
    expect(() => parseOptions(["--nope"], {})).toThrow(/unknown option/);
  });
});
