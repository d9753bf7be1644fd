import type { ServerChild } from "../lib/child.js";
import { createKey, type Session, signIn } from "../lib/keyport.js";
import type { Measurement } from "../lib/load.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startKeyport } from "../lib/servers.js";
import { percentile } from "../lib/stats.js";
import { startWebhookReceiver, type WebhookReceiver } from "../lib/webhook-receiver.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

// Whether the outbox keeps up with 200 key changes a second on PostgreSQL (docs/benchmarks.md,
// docs/webhooks.md#delivery): reported, not judged.
const NAME = "webhook-delivery";
const TARGET: Target = { kind: "report", label: "reported: keeps up = ratio >= 0.95, drained < 2 s" };
const RATE = 200;
// Open loop: a timer issues what is due whatever is still under way, up to this many at once.
const MAX_IN_FLIGHT = 64;
const TICK_MS = 5;
// Renames go over this many keys of one wallet; creates over other wallets, at most this many each
// (under MAX_ACTIVE_KEYS_PER_WALLET's default of 50).
const KEYS = 50;
const CREATES_PER_WALLET = 45;
// How long the bench waits for the backlog after the load before calling the rest missing.
const DRAIN_LIMIT_MS = 30_000;

interface Change {
  name: string;
  issuedAt: number;
  answeredAt: number;
  ok: boolean;
}

/** Where the open loop sends its changes: even ones rename a key, odd ones create a key. */
interface Targets {
  url: string;
  /** The wallet whose keys are renamed, and its keys. */
  renamer: Session;
  keyIds: readonly string[];
  /** Wallets that create keys, each at most CREATES_PER_WALLET. */
  creators: readonly Session[];
}

async function createNamed(url: string, session: Session, name: string): Promise<boolean> {
  const response = await fetch(`${url}/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ name }),
  });
  await response.arrayBuffer();
  return response.status === 201;
}

/** Change `index` of the load: a rename (even) or a create (odd), named after the index. */
function change(targets: Targets, index: number, name: string): Promise<boolean> {
  const half = Math.floor(index / 2);
  if (index % 2 === 0) {
    return patchName(targets.url, targets.renamer, targets.keyIds[half % targets.keyIds.length] ?? "", name);
  }
  const creator = targets.creators[Math.floor(half / CREATES_PER_WALLET)];
  return creator === undefined ? Promise.resolve(false) : createNamed(targets.url, creator, name);
}

async function patchName(url: string, session: Session, id: string, name: string): Promise<boolean> {
  const response = await fetch(`${url}/api-keys/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ name }),
  });
  await response.arrayBuffer();
  return response.status === 200;
}

/** Issues changes (renames and creates) at RATE a second for `seconds`, each answer timed. */
async function openLoop(targets: Targets, seconds: number) {
  const changes: Change[] = [];
  const pending = new Set<Promise<void>>();
  const began = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - began;
      const due = Math.floor((Math.min(elapsed, seconds * 1000) * RATE) / 1000);
      while (changes.length < due) {
        // At the bound, what is due waits for the next tick (and goes out in a burst then).
        if (pending.size >= MAX_IN_FLIGHT) break;
        const issued: Change = {
          name: `bench change ${changes.length}`,
          issuedAt: performance.now(),
          answeredAt: Number.NaN,
          ok: false,
        };
        changes.push(issued);
        const request = change(targets, changes.length, issued.name)
          .then(
            (ok) => {
              issued.ok = ok;
            },
            () => {
              issued.ok = false;
            },
          )
          .finally(() => {
            issued.answeredAt = performance.now();
            pending.delete(request);
          });
        pending.add(request);
      }
      if (elapsed >= seconds * 1000) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  await Promise.all(pending);
  // Due changes still held back by the bound when the load's time ran out.
  const notIssued = Math.floor(RATE * seconds) - changes.length;
  return { changes, notIssued, began, loadEnd: performance.now() };
}

/**
 * Events per second over the span from the first to the last of `times` (ms); 0 for fewer than 2.
 * Changes and deliveries are each rated over their own span, so the lag between the two streams
 * cancels out: an outbox that falls behind stretches its span past the changes'.
 */
function rate(times: readonly number[]): number {
  if (times.length < 2) return 0;
  const span = Math.max(...times) - Math.min(...times);
  return span > 0 ? ((times.length - 1) * 1000) / span : 0;
}

/** Polls until every successful change has arrived or `DRAIN_LIMIT_MS` passed; returns when it stopped. */
async function drain(receiver: WebhookReceiver, names: readonly string[]): Promise<number> {
  const deadline = performance.now() + DRAIN_LIMIT_MS;
  while (performance.now() < deadline && names.some((name) => !receiver.arrivals.has(name))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now();
}

/** Adds an endpoint at the receiver to the session's wallet, subscribed to `events`. */
async function subscribe(url: string, session: Session, receiver: WebhookReceiver, events: string[]) {
  const created = await fetch(`${url}/api-keys/${session.wallet}/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ url: receiver.url, events }),
  });
  await created.arrayBuffer();
  if (created.status !== 201) throw new Error(`adding the endpoint answered ${created.status}`);
}

async function measure(ctx: ScenarioContext, server: ServerChild, receiver: WebhookReceiver) {
  const seconds = ctx.options.durationSeconds;
  // The renamed keys first, then the endpoints: their own key.created messages are not the load's.
  const renamer = await signIn(server.url);
  const keyIds: string[] = [];
  for (let i = 0; i < KEYS; i++) keyIds.push((await createKey(server.url, renamer, `webhook key ${i}`)).id);
  await subscribe(server.url, renamer, receiver, ["key.updated"]);
  const creators: Session[] = [];
  const creates = Math.ceil((RATE * seconds) / 2);
  for (let i = 0; i < Math.ceil(creates / CREATES_PER_WALLET); i++) {
    const creator = await signIn(server.url);
    await subscribe(server.url, creator, receiver, ["key.created"]);
    creators.push(creator);
  }

  ctx.log(
    `${NAME} [postgres]: key changes at ${RATE}/s for ${seconds} s (half renames over ${KEYS} keys, half creates over ${creators.length} wallets), receiver answers 204`,
  );
  const { changes, notIssued, began, loadEnd } = await openLoop(
    { url: server.url, renamer, keyIds, creators },
    seconds,
  );
  const succeeded = changes.filter((change) => change.ok);
  const drainedAt = await drain(
    receiver,
    succeeded.map((change) => change.name),
  );

  const lags: number[] = [];
  const arrivals: number[] = [];
  for (const change of succeeded) {
    const arrivedAt = receiver.arrivals.get(change.name);
    if (arrivedAt === undefined) continue;
    arrivals.push(arrivedAt);
    lags.push(arrivedAt - change.answeredAt);
  }
  const missing = succeeded.length - arrivals.length;
  const lastArrival = arrivals.length > 0 ? Math.max(...arrivals) : began;
  const backlogMs = missing > 0 ? drainedAt - loadEnd : Math.max(0, lastArrival - loadEnd);
  const patchLatencies = changes.map((change) => change.answeredAt - change.issuedAt);

  const changesMeasured: Measurement = {
    rps: rate(succeeded.map((change) => change.answeredAt)),
    p50: percentile(patchLatencies, 50),
    p99: percentile(patchLatencies, 99),
    ok: succeeded.length,
    non2xx: changes.length - succeeded.length,
    errors: 0,
  };
  const deliveriesMeasured: Measurement = {
    rps: rate(arrivals),
    p50: percentile(lags, 50),
    p99: percentile(lags, 99),
    ok: arrivals.length,
    non2xx: missing,
    errors: 0,
  };
  const keepsUp = missing === 0 && deliveriesMeasured.rps >= 0.95 * changesMeasured.rps && backlogMs <= 2000;
  const note = [
    `${succeeded.length} changes at ${changesMeasured.rps.toFixed(0)}/s (target ${RATE}/s${notIssued > 0 ? `, ${notIssued} never issued: ${MAX_IN_FLIGHT} in flight` : ""})`,
    `${arrivals.length} deliveries at ${deliveriesMeasured.rps.toFixed(0)}/s`,
    `lag p50 ${percentile(lags, 50).toFixed(0)} ms, p95 ${percentile(lags, 95).toFixed(0)} ms, max ${percentile(lags, 100).toFixed(0)} ms`,
    `backlog drained ${(backlogMs / 1000).toFixed(2)} s after the load${missing > 0 ? ` (${missing} never arrived within ${DRAIN_LIMIT_MS / 1000} s)` : ""}`,
    `${receiver.duplicates()} duplicates`,
    `keeps up: ${keepsUp ? "yes" : "no"}`,
  ].join(", ");
  return judge({
    name: NAME,
    database: "postgres",
    target: TARGET,
    scenario: summarize("webhook deliveries (p50/p99: arrival - the change's answer)", [deliveriesMeasured]),
    baseline: summarize(`key changes (PATCH a name, POST a key), open loop at ${RATE}/s`, [changesMeasured]),
    rssMb: await server.rssMb(),
    note,
  });
}

/** Key changes at 200/s (renames and creates over several wallets, each with an endpoint): do deliveries keep up? */
export const webhookScenarios: ScenarioModule = {
  names: [NAME],
  async run(ctx: ScenarioContext): Promise<ScenarioResult[]> {
    if (!ctx.options.databases.includes("postgres")) {
      return [skipped(NAME, "postgres", TARGET, "measured on PostgreSQL only (--db postgres)")];
    }
    const children: ServerChild[] = [];
    const receiver = await startWebhookReceiver();
    try {
      const server = await startKeyport(
        "server-webhooks-postgres",
        await ctx.databases.create("postgres"),
        ctx.children,
        { WEBHOOKS_ALLOW_PRIVATE: "true" },
      );
      children.push(server);
      return [await measure(ctx, server, receiver)];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log(`${NAME} [postgres] failed: ${message}`);
      return [skipped(NAME, "postgres", TARGET, message, "failed")];
    } finally {
      await Promise.all(children.map((child) => child.stop()));
      await receiver.close();
    }
  },
};
