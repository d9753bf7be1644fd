import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { appRouter } from "../src/routers/_app.js";
import { describeDatabases } from "./support/databases.js";
import { type InputPath, sampleInput, stringPaths, withValueAt } from "./support/schema-cases.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

// Generated from the router (slow tier: every string field of every procedure, three hostile values
// and a deep JSON each, on each database): nothing a client puts in a string may reach PostgreSQL
// as a NUL or a lone surrogate, or fail any other way than a 4xx (docs/api.md, "Formats", text).
const HOSTILE = ["x\u0000y", "x\ud800", "\udc00", "\u0000"];
/** An array nested 100 deep where a string belongs (deeper than MAX_JSON_DEPTH). */
const DEEP: unknown = Array.from({ length: 100 }).reduce<unknown>((inner) => [inner], "x");

// Fields whose contract answers 200 to any string: the verification contract (docs/api.md) answers
// NOT_FOUND for a key that is not one, never a 4xx; nothing of it is stored.
const ANSWERS_ANY_STRING = new Set(["keys.verify key"]);

interface Procedure {
  path: string;
  type: string;
  input: unknown;
}

function proceduresOf(router: unknown): Procedure[] {
  const def: unknown = Reflect.get(router as object, "_def");
  const record: unknown = typeof def === "object" && def !== null ? Reflect.get(def, "procedures") : {};
  return Object.entries(typeof record === "object" && record !== null ? record : {}).map(([path, proc]) => {
    const procDef: unknown = Reflect.get(proc as object, "_def");
    const inputs: unknown =
      typeof procDef === "object" && procDef !== null ? Reflect.get(procDef, "inputs") : [];
    const type: unknown = typeof procDef === "object" && procDef !== null ? Reflect.get(procDef, "type") : "";
    return { path, type: String(type), input: Array.isArray(inputs) ? inputs[0] : undefined };
  });
}

describeDatabases("hostile text in every string field of every procedure", (target) => {
  const lines: string[] = [];
  const account = newAccount();
  let app: App;
  let baseUrl: string;
  let token: string;
  let wallet: string;
  let keyId: string;
  let webhookId: string;

  beforeAll(async () => {
    app = await createApp(
      parseEnv({
        DATABASE_URL: target.url,
        WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
        WEBHOOKS_ALLOW_PRIVATE: "true",
        NONCE_RATE_LIMIT: "off",
        OPERATOR_WALLETS: account.address,
      }),
      { database: target.database, logger: createLogger("info", logSink(lines)) },
    );
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    ({ token, wallet } = await signIn(baseUrl, account));
    const created = await request(baseUrl, "POST", "/api-keys", { token, body: { name: "target" } });
    keyId = (created.body as { apiKey: { id: string } }).apiKey.id;
    const hook = await request(baseUrl, "POST", `/api-keys/${wallet}/webhooks`, {
      token,
      body: { url: "http://127.0.0.1:9/hook", events: ["key.created"] },
    });
    webhookId = (hook.body as { webhook: { id: string } }).webhook.id;
  });
  afterAll(() => app.close());

  /** A plausible value for a string field, so the hostile field is the one validation meets. */
  const sample = (procedure: string) => (field: string) => {
    if (field === "wallet") return wallet;
    if (field === "keyId") return keyId;
    if (field === "id") return procedure.startsWith("webhooks.") ? webhookId : keyId;
    if (field === "url") return "http://127.0.0.1:9/hook";
    if (field === "deliveryId") return "1";
    return "text";
  };

  async function call(procedure: Procedure, input: unknown) {
    const json = JSON.stringify({ json: input });
    if (procedure.type === "query") {
      return request(baseUrl, "GET", `/trpc/${procedure.path}?input=${encodeURIComponent(json)}`, { token });
    }
    return request(baseUrl, "POST", `/trpc/${procedure.path}`, {
      token,
      rawBody: json,
      headers: { "content-type": "application/json" },
    });
  }

  it("answers 4xx with no error-level log line, on every procedure and string field", async () => {
    const procedures = proceduresOf(appRouter);
    expect(procedures.length).toBeGreaterThan(30);
    const failures: string[] = [];
    let cases = 0;
    // How many generated inputs a procedure accepts as they are: the hostile value is then the only
    // thing wrong with its case, not one issue among others.
    let accepted = 0;
    for (const procedure of procedures) {
      if (procedure.input === undefined) continue;
      const base = sampleInput(procedure.input, sample(procedure.path));
      if (procedure.type === "query" && (await call(procedure, base)).status < 300) accepted++;
      for (const path of stringPaths(procedure.input)) {
        const field = path.filter((part): part is string => typeof part === "string").at(-1) ?? "";
        const name = `${procedure.path} ${path.join(".")}`;
        for (const value of [...HOSTILE, DEEP]) {
          cases++;
          const from = lines.length;
          const answer = await call(procedure, withValueAt(base, path as InputPath, value));
          const allowedOk =
            ANSWERS_ANY_STRING.has(`${procedure.path} ${field}`) && answer.status === 200 && value !== DEEP;
          if (!(answer.status >= 400 && answer.status < 500) && !allowedOk) {
            failures.push(`${name} ${JSON.stringify(value).slice(0, 20)}: ${answer.status}`);
          }
          const errors = lines
            .slice(from)
            .filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
          if (errors.length > 0) failures.push(`${name}: error log ${errors[0]?.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cases).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThanOrEqual(10);
  }, 600_000);
});
