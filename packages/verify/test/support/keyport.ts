import { type App, createApp, createLogger, parseEnv } from "@keyport/server";
import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { copyPgliteTemplate } from "@keyport/test-support/pglite-copy";
import { signIn } from "@keyport/test-support/siwe";

/** The real Keyport server on 127.0.0.1 over a PGlite of its own, which a test can stop and start again. */
export interface Keyport {
  /** e.g. `http://127.0.0.1:54321`: the same across a stop and start. */
  baseUrl: string;
  /** Every line the server logged (info and above), as text. */
  logLines: string[];
  /** Creates a key for this server's wallet over REST; `body` as `POST /api-keys` takes it. */
  createKey(body?: Record<string, unknown>): Promise<{ key: string; id: string }>;
  /** Sets this server's wallet's own named limits over REST (`PUT /api-keys/:wallet/limits`; [] removes them). */
  setWalletLimits(rateLimits: Record<string, unknown>[]): Promise<void>;
  /** Revokes a key over REST (`DELETE /api-keys/:id`). */
  revokeKey(id: string): Promise<void>;
  /** Stops the server: its port refuses connections until `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the real server app on a copy of the run's migrated PGlite folder (`memory:` when the global
 * setup did not run: then it cannot restart), signs in with a viem local account; share one per file.
 */
export async function startKeyport(env: Record<string, string> = {}): Promise<Keyport> {
  const dataDir = copyPgliteTemplate("verify");
  const database = dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: "memory:" };
  const settings = parseEnv({ ...database, LOG_LEVEL: "info", NONCE_RATE_LIMIT: "off", ...env });
  const logLines: string[] = [];
  const open = () =>
    createApp(settings, { logger: createLogger("info", logSink(logLines)), shutdownTimeoutMs: 1_000 });
  let app: App | null = await open();
  const port = await app.listen(0, "127.0.0.1");
  const baseUrl = `http://127.0.0.1:${port}`;
  const { token, wallet } = await signIn(baseUrl);
  return {
    baseUrl,
    logLines,
    async createKey(body = { name: "backend" }) {
      const { status, body: created } = await request(baseUrl, "POST", "/api-keys", { token, body });
      // `{ key, apiKey: { id, ... } }` (docs/api.md)
      const key: unknown = Reflect.get(Object(created), "key");
      const id: unknown = Reflect.get(Object(Reflect.get(Object(created), "apiKey")), "id");
      if (status !== 201 || typeof key !== "string" || typeof id !== "string")
        throw new Error(`create failed with ${status}`);
      return { key, id };
    },
    async setWalletLimits(rateLimits) {
      const { status } = await request(baseUrl, "PUT", `/api-keys/${wallet}/limits`, {
        token,
        body: { rateLimits },
      });
      if (status !== 200) throw new Error(`setting the wallet's limits failed with ${status}`);
    },
    async revokeKey(id) {
      const { status } = await request(baseUrl, "DELETE", `/api-keys/${id}`, { token });
      if (status !== 200) throw new Error(`revoke failed with ${status}`);
    },
    async stop() {
      await app?.close();
      app = null;
    },
    async start() {
      app = await open();
      await app.listen(port, "127.0.0.1");
    },
    async close() {
      await app?.close();
      app = null;
    },
  };
}
