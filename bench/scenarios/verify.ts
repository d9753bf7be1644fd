import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Contestant } from "../lib/alternate.js";
import type { ServerChild } from "../lib/child.js";
import type { BenchDatabase } from "../lib/databases.js";
import { createKey, documentsRoute, type Session, signIn } from "../lib/keyport.js";
import type { LoadSpec } from "../lib/load.js";
import { createRedisPrefix, type RedisPrefix } from "../lib/redis-prefix.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { seedPurchased } from "../lib/seed-purchased.js";
import { startBenchServer, startKeyport } from "../lib/servers.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

const TARGETS = {
  "verify-rest": { kind: "ratio", min: 0.6, maxP99Ms: 10 },
  "verify-trpc": { kind: "ratio", min: 0.5 },
  // tRPC's keys.verify beside REST's in the same run (the same server, the same key).
  "verify-trpc-vs-rest": { kind: "ratio", min: 0.6 },
  "verify-recording": { kind: "ratio", min: 0.9 },
  // A key with permissions and meta stays within 10 % of a plain key (same run).
  "verify-policy": { kind: "ratio", min: 0.9 },
  // A key with credits (each verification spends one in the database), beside a plain key.
  "verify-credits": { kind: "report", label: "reported vs plain key (was 0.08, 1,110 req/s)" },
  // The same on a server with REDIS_URL, beside a plain key on that server: the goal is 0.9.
  "verify-credits-redis": { kind: "ratio", min: 0.7 },
  // A key whose allowance is 0 and whose purchased credits are large (every spend takes from the
  // second pool), beside the metered key of verify-credits / verify-credits-redis in the same run.
  "verify-credits-purchased": { kind: "ratio", min: 0.9 },
  "verify-credits-purchased-redis": { kind: "ratio", min: 0.9 },
} as const satisfies Record<string, Target>;
type Name = keyof typeof TARGETS;
const NAMES: readonly Name[] = [
  "verify-rest",
  "verify-trpc",
  "verify-trpc-vs-rest",
  "verify-recording",
  "verify-policy",
  "verify-credits",
  "verify-credits-redis",
  "verify-credits-purchased",
  "verify-credits-purchased-redis",
];
// Scenarios measured on PostgreSQL only: credits are spent in the shared database.
const POSTGRES_ONLY: readonly Name[] = [
  "verify-credits",
  "verify-credits-redis",
  "verify-credits-purchased",
  "verify-credits-purchased-redis",
];

// The bench's policy key has 3 permissions and about 200 bytes of meta.
const POLICY_KEY = {
  name: "verify bench, policy",
  permissions: ["prices:read", "chat:write", "usage:*"],
  meta: {
    customer: "cus_0123456789abcdef",
    plan: "pro-annual",
    region: "eu-west-1",
    team: { id: "team_42", name: "Market data" },
    features: ["prices", "chat", "usage-export"],
    contact: "ops@example.com",
  },
};
// A balance the measurement cannot exhaust (MAX_CREDITS), spent one credit a verification.
const CREDITS_KEY = { name: "verify bench, credits", credits: { remaining: 1_000_000_000 } };
// An allowance of 0 and purchased credits past 2^32 (bigint columns), seeded before the first verification.
const PURCHASED_KEY = { name: "verify bench, purchased credits", credits: { remaining: 0 } };
const PURCHASED_CREDITS = 1_000_000_000_000;

/** Creates a key with the given create body; returns its secret and id. */
async function createKeyWith(
  baseUrl: string,
  token: string,
  body: object,
): Promise<{ secret: string; id: string }> {
  const response = await fetch(`${baseUrl}/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const created: unknown = await response.json();
  const key = typeof created === "object" && created !== null ? Reflect.get(created, "key") : null;
  const apiKey = typeof created === "object" && created !== null ? Reflect.get(created, "apiKey") : null;
  const id = typeof apiKey === "object" && apiKey !== null ? Reflect.get(apiKey, "id") : null;
  if (response.status !== 201 || typeof key !== "string" || typeof id !== "string") {
    throw new Error(`create key failed with ${response.status}`);
  }
  return { secret: key, id };
}

// The server setting that turns usage recording off, and where the server declares its settings.
const RECORDING_OFF = { USAGE_RECORDING: "off" };
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function recordingSwitchExists(tree: string | undefined): Promise<boolean> {
  const env = await readFile(join(tree ?? ROOT, "packages/server/src/env.ts"), "utf8");
  return env.includes("USAGE_RECORDING");
}

async function expectValid(spec: LoadSpec): Promise<void> {
  const response = await fetch(spec.url, {
    method: spec.method ?? "GET",
    headers: spec.headers,
    body: spec.body,
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"VALID"')) {
    throw new Error(`verify answered ${response.status} without VALID`);
  }
}

/** The tRPC call of keys.verify: a mutation (POST, superjson body) or, failing that, a query (GET). */
async function trpcVerifySpec(baseUrl: string, secret: string): Promise<LoadSpec | null> {
  const input = JSON.stringify({ json: { key: secret } });
  const headers = { "content-type": "application/json" };
  const mutation: LoadSpec = { url: `${baseUrl}/trpc/keys.verify`, method: "POST", headers, body: input };
  const query: LoadSpec = { url: `${baseUrl}/trpc/keys.verify?input=${encodeURIComponent(input)}` };
  for (const spec of [mutation, query]) {
    const response = await fetch(spec.url, {
      method: spec.method ?? "GET",
      headers: spec.headers,
      body: spec.body,
    });
    if (response.status === 200 && (await response.text()).includes('"VALID"')) return spec;
    await response.arrayBuffer().catch(() => undefined);
  }
  return null;
}

const REDIS_PLAIN = "verify REST, Redis, plain key";
const REDIS_CREDITS = "verify REST, Redis, credits key";
const REDIS_PURCHASED = "verify REST, Redis, purchased credits key";

/** The verification of a key spending `cost: 1`, checked VALID once. */
async function creditsSpec(baseUrl: string, secret: string): Promise<LoadSpec> {
  const spec: LoadSpec = {
    url: `${baseUrl}/api-keys/verify`,
    method: "POST",
    body: JSON.stringify({ key: secret, cost: 1 }),
  };
  await expectValid({ ...spec, headers: { "content-type": "application/json" } });
  return spec;
}

/** A key with an allowance of 0 and purchased credits (seeded before its first verification). */
async function purchasedSpec(
  server: ServerChild,
  session: Session,
  database: BenchDatabase,
): Promise<LoadSpec> {
  if (database.kind !== "postgres") throw new Error("purchased credits are seeded in PostgreSQL only");
  const { secret, id } = await createKeyWith(server.url, session.token, PURCHASED_KEY);
  await seedPurchased(database, id, PURCHASED_CREDITS);
  return creditsSpec(server.url, secret);
}

/**
 * A plain key and a credits key on the server started with REDIS_URL (and, when asked, a
 * purchased-credits key), each checked VALID.
 */
async function redisContestants(
  server: ServerChild,
  session: Session,
  database: BenchDatabase,
  purchased: boolean,
): Promise<Contestant[]> {
  const { secret } = await createKey(server.url, session, "verify bench, Redis");
  const plain: LoadSpec = {
    url: `${server.url}/api-keys/verify`,
    method: "POST",
    body: JSON.stringify({ key: secret }),
  };
  await expectValid({ ...plain, headers: { "content-type": "application/json" } });
  const credits = await creditsSpec(
    server.url,
    (await createKeyWith(server.url, session.token, CREDITS_KEY)).secret,
  );
  const contestants = [
    { key: REDIS_PLAIN, spec: plain },
    { key: REDIS_CREDITS, spec: credits },
  ];
  if (purchased)
    contestants.push({ key: REDIS_PURCHASED, spec: await purchasedSpec(server, session, database) });
  return contestants;
}

async function runOn(
  ctx: ScenarioContext,
  database: BenchDatabase,
  withHttpBaseline: boolean,
  results: ScenarioResult[],
): Promise<void> {
  const wanted = NAMES.filter(
    (name) =>
      ctx.selected(name) &&
      (name === "verify-recording" ||
        (POSTGRES_ONLY.includes(name) ? database.kind === "postgres" : withHttpBaseline)),
  );
  if (wanted.length === 0) return;
  const skip = (name: Name, note: string) => results.push(skipped(name, database.kind, TARGETS[name], note));
  const children: ServerChild[] = [];
  let redisPrefix: RedisPrefix | null = null;
  let withRedis: ServerChild | null = null;
  try {
    const server = await startKeyport(`server-verify-${database.kind}`, database, ctx.children);
    children.push(server);
    if (!(await documentsRoute(server.url, "post", "/api-keys/verify"))) {
      for (const name of wanted) skip(name, "skipped: not implemented (no POST /api-keys/verify)");
      return;
    }
    const session = await signIn(server.url);
    const { secret } = await createKey(server.url, session, "verify bench");
    const body = JSON.stringify({ key: secret });
    const rest: LoadSpec = { url: `${server.url}/api-keys/verify`, method: "POST", body };
    await expectValid({ ...rest, headers: { "content-type": "application/json" } });

    const contestants: Contestant[] = [];
    const againstBare = wanted.includes("verify-rest") || wanted.includes("verify-trpc");
    if (withHttpBaseline && againstBare) {
      const bare = await startBenchServer("bare-http", ctx.children);
      children.push(bare);
      contestants.push({
        key: "bare node:http",
        spec: { url: `${bare.url}/api-keys/verify`, method: "POST", body },
      });
    }
    contestants.push({ key: "verify REST", spec: rest });
    if (wanted.includes("verify-policy")) {
      const { secret: policySecret } = await createKeyWith(server.url, session.token, POLICY_KEY);
      const policy: LoadSpec = {
        url: `${server.url}/api-keys/verify`,
        method: "POST",
        body: JSON.stringify({ key: policySecret, permissions: ["chat:write"] }),
      };
      await expectValid({ ...policy, headers: { "content-type": "application/json" } });
      contestants.push({ key: "verify REST, policy key", spec: policy });
    }
    if (wanted.includes("verify-credits") || wanted.includes("verify-credits-purchased")) {
      const { secret: creditsSecret } = await createKeyWith(server.url, session.token, CREDITS_KEY);
      contestants.push({
        key: "verify REST, credits key",
        spec: await creditsSpec(server.url, creditsSecret),
      });
    }
    if (wanted.includes("verify-credits-purchased")) {
      contestants.push({
        key: "verify REST, purchased credits key",
        spec: await purchasedSpec(server, session, database),
      });
    }
    const redisRows = (["verify-credits-redis", "verify-credits-purchased-redis"] as const).filter((name) =>
      wanted.includes(name),
    );
    if (redisRows.length > 0) {
      // Without a reachable Redis only this row is skipped, not the whole verify family.
      try {
        redisPrefix = createRedisPrefix(ctx.options.redisUrl);
        withRedis = await startKeyport(`server-verify-redis-${database.kind}`, database, ctx.children, {
          REDIS_URL: ctx.options.redisUrl,
          REDIS_KEY_PREFIX: redisPrefix.prefix,
        });
        children.push(withRedis);
        const purchased = redisRows.includes("verify-credits-purchased-redis");
        contestants.push(
          ...(await redisContestants(withRedis, await signIn(withRedis.url), database, purchased)),
        );
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error))
          .replace(/\s+/g, " ")
          .slice(0, 200);
        for (const name of redisRows)
          skip(name, `skipped: no server with REDIS_URL=${ctx.options.redisUrl} (${message})`);
      }
    }
    if (wanted.includes("verify-trpc") || wanted.includes("verify-trpc-vs-rest")) {
      const trpc = await trpcVerifySpec(server.url, secret);
      if (trpc) contestants.push({ key: "verify tRPC", spec: trpc });
      else {
        for (const name of ["verify-trpc", "verify-trpc-vs-rest"] as const) {
          if (wanted.includes(name))
            skip(name, "skipped: not implemented (no keys.verify procedure over tRPC)");
        }
      }
    }
    if (wanted.includes("verify-recording")) {
      if (await recordingSwitchExists(ctx.options.tree)) {
        // Its own database of the same kind (PGlite allows one process a folder) and its own key.
        const off = await startKeyport(
          `server-verify-off-${database.kind}`,
          await ctx.databases.create(database.kind),
          ctx.children,
          RECORDING_OFF,
        );
        children.push(off);
        const offKey = await createKey(off.url, await signIn(off.url), "verify bench");
        const offSpec: LoadSpec = {
          url: `${off.url}/api-keys/verify`,
          method: "POST",
          body: JSON.stringify({ key: offKey.secret }),
        };
        await expectValid({ ...offSpec, headers: { "content-type": "application/json" } });
        contestants.push({ key: "verify REST, recording off", spec: offSpec });
      } else {
        skip("verify-recording", "skipped: the server has no USAGE_RECORDING=off setting");
      }
    }

    ctx.log(`verify [${database.kind}]: one valid key, cache hit`);
    const rounds = await ctx.alternateRun(contestants);
    const summary = (key: string, label: string) => {
      const measured = rounds.get(key);
      return measured && measured.length > 0 ? summarize(label, measured) : null;
    };
    const bare = summary("bare node:http", "bare node:http constant JSON");
    const restOn = summary("verify REST", "keyport REST POST /api-keys/verify");
    const trpc = summary("verify tRPC", "keyport tRPC keys.verify");
    const restOff = summary("verify REST, recording off", "same, USAGE_RECORDING=off");
    const policy = summary(
      "verify REST, policy key",
      "REST verify, 3 permissions + 200 B meta, permissions: [1]",
    );
    const credits = summary("verify REST, credits key", "REST verify, key with credits, cost 1");
    const plainKey = restOn && { ...restOn, name: "REST verify, plain key (same run)" };
    const redisPlain = summary(REDIS_PLAIN, "REST verify with REDIS_URL, plain key (same run)");
    const redisCredits = summary(REDIS_CREDITS, "REST verify with REDIS_URL, key with credits, cost 1");
    const purchased = summary(
      "verify REST, purchased credits key",
      "REST verify, allowance 0 + 10^12 purchased credits, cost 1",
    );
    const creditsKey = credits && { ...credits, name: "REST verify, metered key (allowance, same run)" };
    const redisPurchased = summary(
      REDIS_PURCHASED,
      "REST verify with REDIS_URL, allowance 0 + 10^12 purchased credits, cost 1",
    );
    const redisCreditsKey = redisCredits && {
      ...redisCredits,
      name: "REST verify with REDIS_URL, metered key (allowance, same run)",
    };
    for (const [name, measured, baseline] of [
      ["verify-policy", policy, plainKey],
      ["verify-credits", credits, plainKey],
      ["verify-credits-redis", redisCredits, redisPlain],
      ["verify-credits-purchased", purchased, creditsKey],
      ["verify-credits-purchased-redis", redisPurchased, redisCreditsKey],
      ["verify-trpc-vs-rest", trpc, plainKey],
    ] as const) {
      if (wanted.includes(name) && measured && baseline) {
        results.push(
          judge({
            name,
            database: database.kind,
            target: TARGETS[name],
            scenario: measured,
            baseline,
            rssMb:
              (name === "verify-credits-redis" || name === "verify-credits-purchased-redis") && withRedis
                ? await withRedis.rssMb()
                : null,
          }),
        );
      }
    }
    const rss = await server.rssMb();
    if (wanted.includes("verify-rest") && restOn && bare) {
      results.push(
        judge({
          name: "verify-rest",
          database: database.kind,
          target: TARGETS["verify-rest"],
          scenario: restOn,
          baseline: bare,
          rssMb: rss,
        }),
      );
    }
    if (wanted.includes("verify-trpc") && trpc && bare) {
      results.push(
        judge({
          name: "verify-trpc",
          database: database.kind,
          target: TARGETS["verify-trpc"],
          scenario: trpc,
          baseline: bare,
          rssMb: rss,
        }),
      );
    }
    if (wanted.includes("verify-recording") && restOn && restOff) {
      results.push(
        judge({
          name: "verify-recording",
          database: database.kind,
          target: TARGETS["verify-recording"],
          scenario: { ...restOn, name: "verify REST, recording on" },
          baseline: restOff,
          rssMb: rss,
        }),
      );
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.log(`verify [${database.kind}] failed: ${message}`);
    for (const name of wanted) {
      const done = results.some((result) => result.name === name && result.database === database.kind);
      if (!done) results.push(skipped(name, database.kind, TARGETS[name], message, "failed"));
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await redisPrefix?.remove().catch((error: unknown) => {
      ctx.log(
        `verify: could not remove the bench's Redis keys: ${error instanceof Error ? error.message : error}`,
      );
    });
  }
}

/**
 * Verification of a cached valid key: REST and tRPC against bare node:http (on PostgreSQL, the
 * cache hit touches no database), and recording on against off on each database.
 */
export const verifyScenarios: ScenarioModule = {
  names: NAMES,
  async run(ctx) {
    const results: ScenarioResult[] = [];
    const { databases } = ctx.options;
    const httpBaselineOn = databases.includes("postgres") ? "postgres" : databases[0];
    for (const kind of databases) {
      await runOn(ctx, await ctx.databases.create(kind), kind === httpBaselineOn, results);
    }
    return results;
  },
};
