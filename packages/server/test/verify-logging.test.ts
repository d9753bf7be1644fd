import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";

describe("verification logs at debug", () => {
  const lines: string[] = [];
  let database: Database;
  let app: App;
  let baseUrl: string;

  beforeAll(async () => {
    const sink = logSink(lines);
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:" }), {
      database,
      logger: createLogger("debug", sink),
    });
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("write one debug line per verification, REST and tRPC, without the key", async () => {
    const { token } = await signIn(baseUrl);
    const { key } = await createKeyOver(baseUrl, token);
    const before = lines.length;
    await request(baseUrl, "POST", "/api-keys/verify", { body: { key } });
    await request(baseUrl, "POST", "/trpc/keys.verify", { body: { json: { key } } });
    const logged = lines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "request");
    expect(logged.map((entry) => [entry.level, entry.route, entry.status])).toEqual([
      [20, "/api-keys/verify", 200],
      [20, "/trpc/keys.verify", 200],
    ]);
    expect(lines.join("\n")).not.toContain(key);
  });
});
