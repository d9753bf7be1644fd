import { createApp, parseEnv } from "@keyport/server";

/** The Keyport server running in-process on 127.0.0.1 over an in-memory PGlite. */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:54321` */
  baseUrl: string;
  /** The tRPC endpoint: `${baseUrl}/trpc`. */
  trpcUrl: string;
  close(): Promise<void>;
}

/** Starts the real server app (migrated in-memory PGlite, logs silenced); share one per test file. */
export async function startKeyportServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const app = await createApp(parseEnv({ DATABASE_URL: "memory:", LOG_LEVEL: "silent", ...env }));
  const port = await app.listen(0, "127.0.0.1");
  const baseUrl = `http://127.0.0.1:${port}`;
  return { baseUrl, trpcUrl: `${baseUrl}/trpc`, close: () => app.close() };
}
