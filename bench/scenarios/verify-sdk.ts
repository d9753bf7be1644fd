import type { ServerChild } from "../lib/child.js";
import { createKey, signIn } from "../lib/keyport.js";
import type { LoadSpec } from "../lib/load.js";
import { judge, type ScenarioResult, skipped, summarize, type Target } from "../lib/result.js";
import { startBenchServer, startKeyport } from "../lib/servers.js";
import type { ScenarioContext, ScenarioModule } from "./types.js";

// @keyport/verify/h3 costs at most 5 % of the throughput of the same h3 app calling
// POST /api-keys/verify with a bare fetch (both verify every request against the same Keyport).
const NAME = "verify-sdk";
const TARGET: Target = { kind: "ratio", min: 0.95 };

async function expectData(spec: LoadSpec): Promise<void> {
  const response = await fetch(spec.url, { headers: spec.headers });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"ok":true')) {
    throw new Error(`the backend answered ${response.status}: ${text.slice(0, 200)}`);
  }
}

/**
 * An h3 app answering a constant JSON behind @keyport/verify/h3, against the same app verifying with a
 * bare fetch, alternately, both in front of one Keyport server (on PostgreSQL when the run has it).
 */
export const verifySdkScenarios: ScenarioModule = {
  names: [NAME],
  async run(ctx: ScenarioContext): Promise<ScenarioResult[]> {
    // PostgreSQL when the run has it, as verify-rest's baseline does: a cached key touches no database.
    const { databases } = ctx.options;
    const kind = databases.includes("postgres") ? "postgres" : (databases[0] ?? "pglite");
    const children: ServerChild[] = [];
    try {
      const keyport = await startKeyport(
        `server-verify-sdk-${kind}`,
        await ctx.databases.create(kind),
        ctx.children,
      );
      children.push(keyport);
      const session = await signIn(keyport.url);
      const { secret } = await createKey(keyport.url, session, "verify-sdk bench");
      const backend = (mode: "sdk" | "fetch") =>
        startBenchServer(
          "verify-sdk",
          ctx.children,
          { KEYPORT_URL: keyport.url, VERIFY_MODE: mode },
          `verify-${mode}`,
        );
      const sdk = await backend("sdk");
      children.push(sdk);
      const bare = await backend("fetch");
      children.push(bare);
      const headers = { authorization: `Bearer ${secret}` };
      const sdkSpec: LoadSpec = { url: `${sdk.url}/data`, headers };
      const bareSpec: LoadSpec = { url: `${bare.url}/data`, headers };
      await expectData(sdkSpec);
      await expectData(bareSpec);

      ctx.log(`${NAME} [${kind}]: h3 + @keyport/verify/h3 vs h3 + bare fetch, one valid key`);
      const rounds = await ctx.alternateRun([
        { key: "bare fetch", spec: bareSpec },
        { key: "sdk", spec: sdkSpec },
      ]);
      const measuredSdk = rounds.get("sdk") ?? [];
      const measuredBare = rounds.get("bare fetch") ?? [];
      if (measuredSdk.length === 0 || measuredBare.length === 0) throw new Error("no rounds measured");
      return [
        judge({
          name: NAME,
          database: kind,
          target: TARGET,
          scenario: summarize("h3 + @keyport/verify/h3, constant JSON", measuredSdk),
          baseline: summarize("h3 + bare fetch to POST /api-keys/verify", measuredBare),
          rssMb: await sdk.rssMb(),
        }),
      ];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log(`${NAME} [${kind}] failed: ${message}`);
      return [skipped(NAME, kind, TARGET, message, "failed")];
    } finally {
      await Promise.all(children.map((child) => child.stop()));
    }
  },
};
