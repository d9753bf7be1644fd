import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabaseFactory } from "./lib/databases.js";
import { createKey, signIn } from "./lib/keyport.js";
import { type LoadSpec, measureLoad } from "./lib/load.js";
import { seedUsage } from "./lib/seed-usage.js";
import { startKeyport } from "./lib/servers.js";

// `npx tsx bench/memory.ts [pglite|postgres] [seconds]`: one server under the bench's loads (verify
// over REST, over tRPC, keys-list of 20 keys, and on PostgreSQL the usage scenario's 90 days by
// day; 50 connections each), printing after each load its
// RSS and memory split (V8 heap and its new/old spaces, external, array buffers) before and after
// two forced full collections. What docs/benchmarks.md#memory reports was measured with it.

const kind = process.argv[2] === "pglite" ? "pglite" : "postgres";
const seconds = Number(process.argv[3] ?? 5);
const PROBE = fileURLToPath(new URL("./lib/memory-probe.mjs", import.meta.url));

const dir = await mkdtemp(join(tmpdir(), "keyport-memory-"));
const out = join(dir, "split.json");
const databases = createDatabaseFactory(
  process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
);
const settings = { cpuProfDir: undefined, logLevel: "info", tree: undefined };
const database = await databases.create(kind);
const server = await startKeyport(`memory-${kind}`, database, settings, {
  NODE_OPTIONS: `--import ${PROBE}`,
  MEMORY_PROBE_OUT: out,
});

async function report(label: string): Promise<void> {
  await rm(out, { force: true });
  process.kill(server.pid, "SIGUSR2");
  for (let waited = 0; waited < 50; waited++) {
    const text = await readFile(out, "utf8").catch(() => "");
    if (text !== "") {
      process.stdout.write(`${label}\n${text}\n`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server wrote no memory split");
}

try {
  await report("started");
  const owner = await signIn(server.url);
  let secret = "";
  for (let i = 0; i < 20; i++) secret = (await createKey(server.url, owner, `key ${i}`)).secret;
  const loads: Array<[string, LoadSpec]> = [
    [
      "verify REST",
      { url: `${server.url}/api-keys/verify`, method: "POST", body: JSON.stringify({ key: secret }) },
    ],
    [
      "verify tRPC",
      {
        url: `${server.url}/trpc/keys.verify`,
        method: "POST",
        body: JSON.stringify({ json: { key: secret } }),
      },
    ],
    [
      "keys-list",
      { url: `${server.url}/api-keys/${owner.wallet}`, headers: { authorization: `Bearer ${owner.token}` } },
    ],
  ];
  if (database.kind === "postgres") {
    // The usage scenario's read (PGlite would need the server stopped to seed: see scenarios/usage.ts).
    await seedUsage(database, owner.wallet);
    const to = new Date();
    const from = new Date(to.getTime() - 90 * 86_400_000);
    loads.push([
      "usage",
      {
        url: `${server.url}/api-keys/${owner.wallet}/usage?from=${from.toISOString()}&to=${to.toISOString()}&granularity=day`,
        headers: { authorization: `Bearer ${owner.token}` },
      },
    ]);
  }
  for (const [name, spec] of loads) {
    const measured = await measureLoad(spec, { connections: 50, durationSeconds: seconds });
    await report(
      `after ${name} (${Math.round(measured.rps)} req/s, VmRSS ${(await server.rssMb()).toFixed(0)} MB)`,
    );
  }
} finally {
  await server.stop();
  await databases.dropAll();
  await rm(dir, { recursive: true, force: true });
}
