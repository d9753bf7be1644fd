import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "./support/databases.js";
import { type DocUnit, instrument, readRun, shellBlocks, type UnitRun } from "./support/doc-script.js";
import { compareToSketch, firstSketchText, parseSketch } from "./support/doc-sketch.js";
import { startTestServer, type TestServer } from "./support/server.js";

// Slow tier: the REST walk-through run as written, in bash at the repository root against a real
// server (its sign-in script is two tsx processes), with verifying-keys.md's runnable commands
// before its sign-out. Each comment that shows an answer is held to the answer the command got.

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const read = (page: string) => readFileSync(join(ROOT, page), "utf8");
// The one line a reader adapts: where their server is.
const URL_LINE = "export KEYPORT_URL=http://localhost:3000";

/** The walk-through's blocks, with verifying-keys.md's blocks that need no placeholder key before "Roll, revoke, sign out". */
function walkThroughBlocks(): string[] {
  const [before = "", after = ""] = read("docs/rest-walkthrough.md").split(/^## Roll, revoke, sign out$/m);
  const verifying = shellBlocks(read("docs/verifying-keys.md")).filter(
    (block) => block.includes("$KEYPORT_URL") && !block.includes("kp_..."),
  );
  return [...shellBlocks(before), ...verifying, ...shellBlocks(after)];
}

const parseLine = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
};

/** The answers a unit's comment describes: its captured variable's, else every line it printed. */
function answersOf(run: UnitRun): unknown[] {
  return run.captured === undefined ? run.lines.map(parseLine) : [parseLine(run.captured)];
}

describe("the REST walk-through, run as written", () => {
  let server: TestServer;
  let database: Awaited<ReturnType<typeof openTestPglite>>;
  let units: DocUnit[];
  let runs: UnitRun[];
  let stderr: string;

  beforeAll(async () => {
    database = await openTestPglite();
    // As `DATABASE_URL=memory: pnpm --filter @keyport/server start` would: the server's own defaults.
    server = await startTestServer({ database, url: "memory:" }, { NONCE_RATE_LIMIT: "10/60" });
    const blocks = walkThroughBlocks();
    expect(blocks.join("\n")).toContain(URL_LINE);
    const instrumented = instrument(blocks);
    units = instrumented.units;
    const port = new URL(server.baseUrl).port;
    const script = instrumented.script.replace(URL_LINE, `export KEYPORT_URL=http://localhost:${port}`);
    const { stdout, stderr: err } = await promisify(execFile)(
      "bash",
      ["-c", `set -euo pipefail\n${script}`],
      // The reader's shell: no KEYPORT_URL or PRIVATE_KEY of the test's own.
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
        timeout: 120_000,
      },
    );
    stderr = err;
    runs = readRun(stdout, units.length);
  }, 150_000);
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it("runs every command without an error answer", () => {
    const failures = runs
      .flatMap((run) => answersOf(run))
      .filter(
        (answer) => typeof answer === "object" && answer !== null && "code" in answer && "message" in answer,
      );
    expect(failures).toEqual([]);
    expect(stderr).toMatch(/signing as 0x/);
  });

  it("shows in each comment the answer its command gets", () => {
    const differences: string[] = [];
    let compared = 0;
    units.forEach((unit, index) => {
      const sketchText = firstSketchText(unit.answer ?? unit.comment);
      if (sketchText === undefined) return;
      const answers = answersOf(runs[index] ?? { lines: [] });
      if (answers.length === 0) differences.push(`${unit.comment}: no answer printed`);
      for (const answer of answers) {
        compared++;
        for (const difference of compareToSketch(answer, parseSketch(sketchText)))
          differences.push(`${unit.comment.slice(0, 40)}: ${difference}`);
      }
    });
    expect(differences).toEqual([]);
    // The fourteen numbered steps that show an answer (step 10 twice), and verifying-keys.md's NOT_FOUND.
    expect(compared).toBe(16);
    const notFound = units.findIndex((unit) => unit.answer?.includes('"code":"NOT_FOUND"'));
    expect(answersOf(runs[notFound] ?? { lines: [] })).toHaveLength(1);
  });

  it("names in the audit-trail step the events the trail holds, newest first", () => {
    const index = units.findIndex((unit) => unit.comment.includes("The audit trail"));
    const unit = units[index];
    const answer = answersOf(runs[index] ?? { lines: [] })[0];
    const named = unit?.comment.match(/\b(?:key|session|limits|webhook|credits)\.[a-z_]+\b/g);
    const events = (answer as { events: { action: string }[] }).events.map((event) => event.action);
    expect(events).toEqual(named);
  });
});
