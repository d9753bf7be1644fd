import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureNumber } from "./support/process.js";

/** Resident memory (MB) of the fixture after its query load, opened the server's way or PGlite's. */
function residentMb(dataDir: string, mode: "server" | "plain"): Promise<number> {
  return fixtureNumber("test/support/pglite-resident.ts", [dataDir, mode], "residentMb");
}

describe("the embedded database's memory", () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "keyport-pglite-resident-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("stays on V8's baseline WebAssembly compiler, about 45 MB below PGlite's default", async () => {
    // The first run also makes the folder (initdb in a child of its own), so both measure an open.
    await residentMb(dataDir, "server");
    const server = await residentMb(dataDir, "server");
    const plain = await residentMb(dataDir, "plain");
    // 243-249 MB against 270-299 MB on the bench machine: the same queries, with and without
    // useBaselineWasmCompiler (docs/benchmarks.md#memory).
    expect(server).toBeLessThan(plain - 15);
  });
});
