import { createApp, parseEnv } from "@keyport/server";
import { copyPgliteTemplate } from "@keyport/test-support/pglite-copy";

/** The real Keyport server running in-process on 127.0.0.1. */
export interface RunningKeyport {
  /** e.g. `http://127.0.0.1:54321`: the proxy's KEYPORT_URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the real server app (logs silenced) on a copy of the run's migrated PGlite folder (the
 * server's pglite-template global setup), which skips PGlite's initdb.
 * @example const keyport = await startKeyport({ SIWE_DOMAINS: "dashboard.test" })
 */
export async function startKeyport(env: Record<string, string> = {}): Promise<RunningKeyport> {
  const dataDir = copyPgliteTemplate("proxy");
  const database = dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: "memory:" };
  // Tests sign in from 127.0.0.1 dozens of times a minute; the server tests its NONCE_RATE_LIMIT itself.
  const app = await createApp(
    parseEnv({ ...database, LOG_LEVEL: "silent", NONCE_RATE_LIMIT: "off", ...env }),
  );
  const port = await app.listen(0, "127.0.0.1");
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
