import { newAccount, signIn } from "@keyport/test-support/siwe";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createMigratedPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { spawnServer } from "./support/process.js";

// The CSV export of a large ledger (docs/operator.md#payments): 100,000 settled payments streamed from
// the real server process over real HTTP, with the process's heap read from its own /metrics while the
// file flows. The export reads 1,000 rows at a time and writes them as the client takes them, so the
// heap grows by a few batches; a route that read the whole range first holds every row at once (about
// 150 MB of row objects for these rows, measured with the batch set to the whole range).

const PAYMENTS = 100_000;
/** The server's heap may grow this much over its idle size while it streams the whole file. */
const HEAP_GROWTH_BOUND = 64 * 1024 * 1024;
const START = Date.UTC(2026, 9, 1);

/** Every 20th payment is a plan purchase (no key); the rest are top-ups, one a second from START. */
const INSERT_PAYMENTS = `insert into payments (kind, network, asset, payer, nonce, signature_hash, key_id,
  plan_id, days, credits_id, wallet, amount, base_units, credits, valid_before, status, transaction,
  locked_until, created_at, updated_at)
select case when i % 20 = 0 then 'plan' else 'top_up' end, 'eip155:8453',
  '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', '0x' || lpad(to_hex(i), 40, '0'),
  '0x' || lpad(to_hex(i), 64, '0'), md5(i::text),
  case when i % 20 = 0 then null else 'key_' || md5(i::text) end,
  case when i % 20 = 0 then 'pro' end, case when i % 20 = 0 then 30 end,
  'key_' || md5(i::text), '0x' || lpad(to_hex(i % 1000), 40, '0'), '1.5', 1500000, 1500,
  t + interval '1 hour', 'credited', '0x' || md5(i::text) || md5((-i)::text), t, t, t
from generate_series(1, $1::int) as i, lateral (select $2::timestamptz + i * interval '1 second' as t) as at`;

/** The process's V8 heap in use and its external memory (socket buffers, Buffers), from its /metrics. */
async function memoryOf(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const read = (name: string) => {
    const match = new RegExp(`^${name} (\\d+(?:\\.\\d+)?(?:e\\+\\d+)?)$`, "m").exec(text);
    if (match?.[1] === undefined) throw new Error(`no ${name} in /metrics`);
    return Number(match[1]);
  };
  return read("nodejs_heap_size_used_bytes") + read("nodejs_external_memory_bytes");
}

describe.runIf(TEST_DATABASE_URL)("the operator's CSV export of 100,000 payments", () => {
  it("streams every row, oldest first, while the server's memory stays bounded", async () => {
    if (!TEST_DATABASE_URL) return;
    const database = await createMigratedPostgresTestDatabase(TEST_DATABASE_URL);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const operator = newAccount();
    const server = await spawnServer({ DATABASE_URL: database.url, OPERATOR_WALLETS: operator.address });
    try {
      const inserting = performance.now();
      await sql.unsafe(INSERT_PAYMENTS, [PAYMENTS, new Date(START).toISOString()]);
      // As autovacuum would soon after so many inserts: the planner then knows the table is large.
      await sql`analyze payments`;
      const insertMs = performance.now() - inserting;
      const { token } = await signIn(server.baseUrl, operator);
      const url = (from: number, to: number) =>
        `${server.baseUrl}/operator/payments.csv?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
      const headers = { authorization: `Bearer ${token}` };
      // A small export first, so code loaded and compiled on first use is not counted as growth.
      const warm = await fetch(url(START, START + 5_000), { headers });
      expect((await warm.text()).split("\r\n")).toHaveLength(1 + 4 + 1);

      const idle = await memoryOf(server.baseUrl);
      let peak = idle;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await memoryOf(server.baseUrl));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();

      const streaming = performance.now();
      const answer = await fetch(url(START, START + 2 * PAYMENTS * 1000), { headers });
      expect(answer.status).toBe(200);
      const reader = answer.body?.getReader();
      if (reader === undefined) throw new Error("no body");
      const decoder = new TextDecoder();
      let lines = 0;
      let bytes = 0;
      let head = "";
      let tail = "";
      let paused = false;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const chunk = read.value;
        bytes += chunk.byteLength;
        const text = decoder.decode(chunk, { stream: true });
        if (head.length < 1_000) head += text;
        tail = (tail + text).slice(-1_000);
        // Every line ends in CRLF (no cell here holds a line break); a chunk may split the pair.
        for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
        // A reader that stops for a while: the server must wait for it, not queue the rest in memory.
        if (!paused && bytes > 4 * 1024 * 1024) {
          paused = true;
          await new Promise((resolve) => setTimeout(resolve, 2_000));
        }
      }
      const streamMs = performance.now() - streaming;
      sampling = false;
      await sampler;

      const growth = peak - idle;
      console.info(
        JSON.stringify({
          payments: PAYMENTS,
          insertMs: Math.round(insertMs),
          streamMs: Math.round(streamMs),
          megabytes: Math.round(bytes / 1e5) / 10,
          idleMb: Math.round(idle / 1e5) / 10,
          peakGrowthMb: Math.round(growth / 1e5) / 10,
        }),
      );
      expect(lines).toBe(1 + PAYMENTS);
      const [header, first] = head.split("\r\n");
      expect(header).toBe(
        "settled_at,kind,wallet,key_id,payer,amount,asset,network,credits,plan_id,days,transaction",
      );
      expect(first?.split(",")).toEqual([
        new Date(START + 1000).toISOString(),
        "top_up",
        `0x${"1".padStart(40, "0")}`,
        expect.stringMatching(/^key_[0-9a-f]{32}$/),
        `0x${"1".padStart(40, "0")}`,
        "1.5",
        "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
        "eip155:8453",
        "1500",
        "",
        "",
        expect.stringMatching(/^0x[0-9a-f]{64}$/),
      ]);
      const last = tail.split("\r\n").at(-2);
      expect(last?.split(",").slice(0, 4)).toEqual([
        new Date(START + PAYMENTS * 1000).toISOString(),
        "plan",
        `0x${(PAYMENTS % 1000).toString(16).padStart(40, "0")}`,
        "",
      ]);
      expect(last?.split(",").slice(9, 11)).toEqual(["pro", "30"]);
      expect(growth).toBeLessThan(HEAP_GROWTH_BOUND);
    } finally {
      await server.stop();
      await sql.end();
      await database.drop();
    }
  });
});
