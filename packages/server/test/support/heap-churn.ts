import { getHeapSpaceStatistics } from "node:v8";
import { limitHeapGrowth } from "../../src/heap-growth.js";

// `node --import tsx test/support/heap-churn.ts [limit]`: holds a live set, then churns objects that
// live long enough to be promoted (as a request's objects do under load), and prints the old space's
// peak use in MB. With `limit`, the server's start-up bound on heap growth is applied first.
if (process.argv[2] === "limit") limitHeapGrowth();

const live: object[] = [];
for (let i = 0; i < 200_000; i++) live.push({ i, label: `live ${i}` });
const ring: object[] = new Array(50_000);
let peak = 0;
for (let round = 0; round < 4_000_000; round++) {
  ring[round % ring.length] = { round, label: `garbage ${round}`, pair: [round, round + 1] };
  if (round % 10_000 === 0) {
    const old = getHeapSpaceStatistics().find((space) => space.space_name === "old_space");
    peak = Math.max(peak, old?.space_used_size ?? 0);
  }
}
process.stdout.write(`${JSON.stringify({ peakMb: peak / 1_048_576, kept: live.length + ring.length })}\n`);
