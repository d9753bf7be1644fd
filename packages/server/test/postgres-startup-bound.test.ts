import { connect, createServer, type Socket } from "node:net";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";

// The second hunk of patches/postgres@3.4.9.patch (docs/decisions.md, "Database outages"): postgres.js
// reconnects with a waiting query when a connection closes during startup, and without the patch it does
// so forever, restarting connect_timeout on each attempt. With it, the query fails with CONNECT_TIMEOUT
// once connect_timeout has passed in all. This fails (times out) when the patch is no longer applied.

/**
 * A proxy to PostgreSQL that forwards a client's startup message and closes both sockets as soon as
 * PostgreSQL answers: a backend that goes away before it is ready, on every attempt.
 */
async function startClosingProxy(
  target: URL,
): Promise<{ port: number; attempts(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let attempts = 0;
  const server = createServer((client) => {
    attempts += 1;
    const upstream = connect({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.once("data", closeBoth);
    client.on("error", closeBoth).on("close", closeBoth);
    upstream.on("error", closeBoth).on("close", closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    attempts: () => attempts,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.runIf(TEST_DATABASE_URL)(
  "postgres.js when PostgreSQL closes every connection during startup",
  () => {
    it("fails the waiting query with CONNECT_TIMEOUT once connect_timeout has passed, instead of retrying forever", async () => {
      const database = await createPostgresTestDatabase(TEST_DATABASE_URL ?? "");
      const proxy = await startClosingProxy(new URL(database.url));
      const url = new URL(database.url);
      url.host = `127.0.0.1:${proxy.port}`;
      const sql = postgres(url.toString(), { max: 1, connect_timeout: 1, onnotice: () => {} });
      try {
        const started = performance.now();
        const outcome = await Promise.race([
          sql`select 1`.then(
            () => "answered",
            (error: unknown) => error,
          ),
          new Promise((resolve) => setTimeout(() => resolve("still waiting after 10 s"), 10_000)),
        ]);
        expect(outcome).toMatchObject({ code: "CONNECT_TIMEOUT" });
        // One second of connect_timeout, plus a busy machine's slack.
        expect(performance.now() - started).toBeLessThan(5_000);
        // It did retry: the bound is over all attempts, not one.
        expect(proxy.attempts()).toBeGreaterThan(1);
      } finally {
        await sql.end({ timeout: 0 });
        await proxy.close();
        await database.drop();
      }
    });
  },
);
