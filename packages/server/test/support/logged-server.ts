import { logSink } from "@keyport/test-support/log-sink";
import { afterAll, beforeAll } from "vitest";
import { type App, createApp } from "../../src/app.js";
import type { Database } from "../../src/db/database.js";
import { parseEnv } from "../../src/env.js";
import { createLogger } from "../../src/logger.js";
import { openTestPglite } from "./databases.js";

/** A server whose log lines a test reads. `baseUrl` is set once the block's `beforeAll` has run. */
export interface LoggedServer {
  /** Every line the server logged (at `info`), in order. */
  lines: string[];
  baseUrl: string;
}

/**
 * Starts a server on the embedded database, logging at `info` into `lines`, before the enclosing
 * block's tests, and closes it after them.
 * @example const server = useLoggedServer(); it("...", () => request(server.baseUrl, ...));
 */
export function useLoggedServer(): LoggedServer {
  const server: LoggedServer = { lines: [], baseUrl: "" };
  let database: Database | undefined;
  let app: App | undefined;
  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:" }), {
      database,
      logger: createLogger("info", logSink(server.lines)),
    });
    server.baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
  return server;
}
