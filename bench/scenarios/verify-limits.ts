import type { Contestant } from "../lib/alternate.js";
import type { ServerChild } from "../lib/child.js";
import { createKey, documentsRoute, type Session, signIn } from "../lib/keyport.js";
import type { LoadSpec } from "../lib/load.js";
import { createRedisPrefix, type RedisPrefix } from "../lib/redis-prefix.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startKeyport } from "../lib/servers.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

// A key with three auto-applied limits whose wallet has a limit too (four windows a verification),
// beside a key with one limit (one window), in the same run: docs/verifying-keys.md#named-limits.
const TARGETS = {
  "verify-limits": { kind: "ratio", min: 0.85 },
  "verify-limits-redis": { kind: "ratio", min: 0.85 },
} as const satisfies Record<string, Target>;
type Name = keyof typeof TARGETS;
const NAMES: readonly Name[] = ["verify-limits", "verify-limits-redis"];

// Limits no measurement can reach (1,000,000 per window of at most 10 s, i.e. 100,000 req/s): every
// verification is VALID and counts in every window.
const ONE_LIMIT = { rateLimits: [{ name: "default", limit: 1_000_000, windowSeconds: 10, autoApply: true }] };
const THREE_LIMITS = {
  rateLimits: [
    { name: "second", limit: 1_000_000, windowSeconds: 1, autoApply: true },
    { name: "five", limit: 1_000_000, windowSeconds: 5, autoApply: true },
    { name: "ten", limit: 1_000_000, windowSeconds: 10, autoApply: true },
  ],
};
const WALLET_LIMIT = [{ name: "wallet", limit: 1_000_000, windowSeconds: 10, autoApply: true }];

/** The verification of `secret`, checked VALID with as many limits applied as expected. */
async function verifySpec(baseUrl: string, secret: string, limits: number): Promise<LoadSpec> {
  const spec: LoadSpec = {
    url: `${baseUrl}/api-keys/verify`,
    method: "POST",
    body: JSON.stringify({ key: secret }),
  };
  const response = await fetch(spec.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: spec.body,
  });
  const answer: unknown = await response.json();
  const code = typeof answer === "object" && answer !== null ? Reflect.get(answer, "code") : null;
  const applied = typeof answer === "object" && answer !== null ? Reflect.get(answer, "ratelimits") : null;
  if (response.status !== 200 || code !== "VALID" || !Array.isArray(applied) || applied.length !== limits) {
    throw new Error(`verify answered ${response.status} ${String(code)} with ${String(applied)} limits`);
  }
  return spec;
}

/** Two keys on `server`: one limit on one wallet; three limits on another wallet that has a limit of its own. */
async function contestantsOn(server: ServerChild, label: string): Promise<Contestant[]> {
  const plain: Session = await signIn(server.url);
  const busy: Session = await signIn(server.url);
  const put = await fetch(`${server.url}/api-keys/${busy.wallet}/limits`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${busy.token}` },
    body: JSON.stringify({ rateLimits: WALLET_LIMIT }),
  });
  if (put.status !== 200) throw new Error(`setting the wallet's limits failed with ${put.status}`);
  const one = await createKey(server.url, plain, "verify bench, one limit", ONE_LIMIT);
  const three = await createKey(server.url, busy, "verify bench, three limits", THREE_LIMITS);
  return [
    { key: `${label}: one limit`, spec: await verifySpec(server.url, one.secret, 1) },
    { key: `${label}: three limits + wallet`, spec: await verifySpec(server.url, three.secret, 4) },
  ];
}

/**
 * Verification of a cached key with three auto-applied limits and a wallet limit against one with a
 * single limit, in this process's windows and with REDIS_URL (one script call either way), on one
 * database (PostgreSQL when measured, else the first): the database is not on a cached key's path.
 */
export const verifyLimitsScenarios: ScenarioModule = {
  names: NAMES,
  async run(ctx: ScenarioContext) {
    const wanted = NAMES.filter((name) => ctx.selected(name));
    const results: ScenarioResult[] = [];
    const { databases } = ctx.options;
    const kind = databases.includes("postgres") ? "postgres" : databases[0];
    if (wanted.length === 0 || kind === undefined) return results;
    const children: ServerChild[] = [];
    let redisPrefix: RedisPrefix | null = null;
    try {
      const contestants: Contestant[] = [];
      if (wanted.includes("verify-limits")) {
        const server = await startKeyport(
          `server-limits-${kind}`,
          await ctx.databases.create(kind),
          ctx.children,
        );
        children.push(server);
        if (!(await documentsRoute(server.url, "get", "/api-keys/{id}/ratelimits"))) {
          for (const name of wanted)
            results.push(skipped(name, kind, TARGETS[name], "skipped: no named limits"));
          return results;
        }
        contestants.push(...(await contestantsOn(server, "in-process")));
      }
      if (wanted.includes("verify-limits-redis")) {
        try {
          redisPrefix = createRedisPrefix(ctx.options.redisUrl);
          const server = await startKeyport(
            `server-limits-redis-${kind}`,
            await ctx.databases.create(kind),
            ctx.children,
            { REDIS_URL: ctx.options.redisUrl, REDIS_KEY_PREFIX: redisPrefix.prefix },
          );
          children.push(server);
          contestants.push(...(await contestantsOn(server, "Redis")));
        } catch (error) {
          const message = (error instanceof Error ? error.message : String(error)).slice(0, 200);
          results.push(
            skipped("verify-limits-redis", kind, TARGETS["verify-limits-redis"], `skipped: ${message}`),
          );
        }
      }
      ctx.log(`verify-limits [${kind}]: three limits + a wallet limit vs one limit, cache hit`);
      const rounds = await ctx.alternateRun(contestants);
      const summary = (key: string, label: string) => {
        const measured = rounds.get(key);
        return measured && measured.length > 0 ? summarize(label, measured) : null;
      };
      for (const [name, label, words] of [
        ["verify-limits", "in-process", "in-process windows"],
        ["verify-limits-redis", "Redis", "with REDIS_URL"],
      ] as const) {
        const three = summary(
          `${label}: three limits + wallet`,
          `REST verify ${words}, 3 limits + wallet limit`,
        );
        const one = summary(`${label}: one limit`, `REST verify ${words}, 1 limit (same run)`);
        if (!wanted.includes(name) || three === null || one === null) continue;
        const server = children[label === "Redis" ? children.length - 1 : 0];
        results.push(
          judge({
            name,
            database: kind,
            target: TARGETS[name],
            scenario: three,
            baseline: one,
            rssMb: server ? await server.rssMb() : null,
          }),
        );
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log(`verify-limits [${kind}] failed: ${message}`);
      for (const name of wanted) {
        if (!results.some((result) => result.name === name))
          results.push(skipped(name, kind, TARGETS[name], message, "failed"));
      }
    } finally {
      await Promise.all(children.map((child) => child.stop()));
      await redisPrefix?.remove().catch(() => undefined);
    }
    return results;
  },
};
