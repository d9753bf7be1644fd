import { createApp, parseEnv } from "@keyport/server";
import { copyPgliteTemplate } from "@keyport/test-support/pglite-copy";

/** The Keyport server running in-process on 127.0.0.1 over an embedded PGlite of its own. */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:54321` */
  baseUrl: string;
  /** The tRPC endpoint: `${baseUrl}/trpc`. */
  trpcUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the real server app (logs silenced) on a copy of the run's migrated PGlite folder, which skips
 * PGlite's initdb (`memory:` when the global setup did not run); share one per test file.
 */
export async function startKeyportServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = copyPgliteTemplate("client");
  const database = dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: "memory:" };
  // Tests sign in from 127.0.0.1 dozens of times a minute; the server tests its NONCE_RATE_LIMIT itself.
  const app = await createApp(
    parseEnv({ ...database, LOG_LEVEL: "silent", NONCE_RATE_LIMIT: "off", ...env }),
  );
  const port = await app.listen(0, "127.0.0.1");
  const baseUrl = `http://127.0.0.1:${port}`;
  return { baseUrl, trpcUrl: `${baseUrl}/trpc`, close: () => app.close() };
}
