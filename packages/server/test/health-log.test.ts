import { logSink } from "@keyport/test-support/log-sink";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";

// `pnpm start` polls /healthz until the server answers, and load balancers poll it for ever: a passing
// check is logged at debug, so the default log shows the requests people make (docs/configuration.md).

async function serve(level: "info" | "debug", lines: string[]) {
  const database = await openTestPglite();
  const app = await createApp(parseEnv({ DATABASE_URL: "memory:" }), {
    database,
    logger: createLogger(level, logSink(lines)),
  });
  const baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  return { database, app, baseUrl };
}

/** The request lines for `route` once the server has written them (it logs when the socket closes). */
async function requestLines(lines: string[], route: string, count: number) {
  const deadline = Date.now() + 5_000;
  let found: Record<string, unknown>[] = [];
  while (Date.now() < deadline) {
    found = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === "request" && entry.route === route);
    if (found.length >= count) break;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return found;
}

describe("health check logs", () => {
  let info: { database: Database; app: App; baseUrl: string };
  let debug: { database: Database; app: App; baseUrl: string };
  const infoLines: string[] = [];
  const debugLines: string[] = [];

  beforeAll(async () => {
    info = await serve("info", infoLines);
    debug = await serve("debug", debugLines);
  });
  afterAll(async () => {
    for (const { app, database } of [info, debug]) {
      await app.close();
      await database.close();
    }
  });

  it("leave a passing /healthz out of the info log, while other requests are logged", async () => {
    expect((await fetch(`${info.baseUrl}/healthz`)).status).toBe(200);
    // Read to the end: an unread answer keeps its socket busy, and close() waits for it.
    const openapi = await fetch(`${info.baseUrl}/openapi.json`);
    expect(openapi.status).toBe(200);
    await openapi.arrayBuffer();
    // The later request's line is written, so the earlier one's would have been too.
    expect(await requestLines(infoLines, "/openapi.json", 1)).toHaveLength(1);
    expect(await requestLines(infoLines, "/healthz", 0)).toEqual([]);
  });

  it("log a passing /healthz at debug", async () => {
    expect((await fetch(`${debug.baseUrl}/healthz`)).status).toBe(200);
    const [line] = await requestLines(debugLines, "/healthz", 1);
    expect(line).toMatchObject({ level: 20, method: "GET", route: "/healthz", status: 200 });
  });
});
