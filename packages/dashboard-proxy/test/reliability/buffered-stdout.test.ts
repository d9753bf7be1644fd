import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The proxy's log lines go to stdout in chunks (src/http/buffered-stdout.ts): in a child process, so
// the test reads a real pipe, through a real exit.

const MODULE = fileURLToPath(new URL("../../src/http/buffered-stdout.ts", import.meta.url));

function runChild(script: string): { lines: string[]; exited: Promise<number | null>; stop: () => void } {
  const lines: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let rest = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split("\n");
    rest = parts.pop() ?? "";
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { lines, exited, stop: () => child.kill() };
}

describe("buffered stdout", () => {
  it("writes every line, whole and in order, including those still gathering when the process exits", async () => {
    const { lines, exited } = runChild(`
      const { createBufferedStdout } = await import(${JSON.stringify(MODULE)});
      const out = createBufferedStdout({ chunkChars: 4096, flushMs: 60_000 });
      for (let i = 0; i < 5000; i++) out.write(JSON.stringify({ n: i, pad: "x".repeat(i % 50) }) + "\\n");
      process.exit(0);
    `);
    expect(await exited).toBe(0);
    expect(lines).toHaveLength(5000);
    expect(lines.map((line) => JSON.parse(line).n)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it("writes a lone line within flushMs, while the process keeps running", async () => {
    const { lines, exited, stop } = runChild(`
      const { createBufferedStdout } = await import(${JSON.stringify(MODULE)});
      const out = createBufferedStdout({ chunkChars: 4096, flushMs: 200 });
      out.write('{"msg":"alone"}\\n');
      setTimeout(() => process.exit(0), 30_000);
    `);
    try {
      await expect.poll(() => lines, { timeout: 5_000 }).toEqual(['{"msg":"alone"}']);
    } finally {
      stop();
      await exited;
    }
  });
});
