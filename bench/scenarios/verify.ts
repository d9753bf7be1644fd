import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Contestant } from "../lib/alternate.js";
import type { ServerChild } from "../lib/child.js";
import type { BenchDatabase } from "../lib/databases.js";
import { createKey, documentsRoute, signIn } from "../lib/keyport.js";
import type { LoadSpec } from "../lib/load.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startBenchServer, startKeyport } from "../lib/servers.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

const TARGETS = {
  "verify-rest": { kind: "ratio", min: 0.5, maxP99Ms: 10 },
  "verify-trpc": { kind: "ratio", min: 0.4 },
  "verify-recording": { kind: "ratio", min: 0.9 },
  // A key with permissions and meta stays within 10 % of a plain key (same run).
  "verify-policy": { kind: "ratio", min: 0.9 },
  // A key with credits (each verification spends one in the database), beside a plain key.
  "verify-credits": { kind: "report", label: "reported vs plain key" },
} as const satisfies Record<string, Target>;
type Name = keyof typeof TARGETS;
const NAMES: readonly Name[] = [
  "verify-rest",
  "verify-trpc",
  "verify-recording",
  "verify-policy",
  "verify-credits",
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

/** Creates a key with the given create body; returns its secret. */
async function createKeyWith(baseUrl: string, token: string, body: object): Promise<string> {
  const response = await fetch(`${baseUrl}/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const created: unknown = await response.json();
  const key = typeof created === "object" && created !== null ? Reflect.get(created, "key") : null;
  if (response.status !== 201 || typeof key !== "string") {
    throw new Error(`create key failed with ${response.status}`);
  }
  return key;
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
        (name === "verify-credits" ? database.kind === "postgres" : withHttpBaseline)),
  );
  if (wanted.length === 0) return;
  const skip = (name: Name, note: string) => results.push(skipped(name, database.kind, TARGETS[name], note));
  const children: ServerChild[] = [];
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
      const policySecret = await createKeyWith(server.url, session.token, POLICY_KEY);
      const policy: LoadSpec = {
        url: `${server.url}/api-keys/verify`,
        method: "POST",
        body: JSON.stringify({ key: policySecret, permissions: ["chat:write"] }),
      };
      await expectValid({ ...policy, headers: { "content-type": "application/json" } });
      contestants.push({ key: "verify REST, policy key", spec: policy });
    }
    if (wanted.includes("verify-credits")) {
      const creditsSecret = await createKeyWith(server.url, session.token, CREDITS_KEY);
      const credits: LoadSpec = {
        url: `${server.url}/api-keys/verify`,
        method: "POST",
        body: JSON.stringify({ key: creditsSecret, cost: 1 }),
      };
      await expectValid({ ...credits, headers: { "content-type": "application/json" } });
      contestants.push({ key: "verify REST, credits key", spec: credits });
    }
    if (wanted.includes("verify-trpc")) {
      const trpc = await trpcVerifySpec(server.url, secret);
      if (trpc) contestants.push({ key: "verify tRPC", spec: trpc });
      else skip("verify-trpc", "skipped: not implemented (no keys.verify procedure over tRPC)");
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
    for (const [name, measured] of [
      ["verify-policy", policy],
      ["verify-credits", credits],
    ] as const) {
      if (wanted.includes(name) && measured && plainKey) {
        results.push(
          judge({
            name,
            database: database.kind,
            target: TARGETS[name],
            scenario: measured,
            baseline: plainKey,
            rssMb: null,
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
