import { connect } from "node:net";
import { logSink } from "@keyport/test-support/log-sink";
import { parsePrometheus } from "@keyport/test-support/prometheus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { openTestPglite } from "./support/databases.js";

// A client that resets or closes mid-body was logged as "database unavailable" (warn, 503)
// or at error level (500) and counted as a 5xx. It is an abort: one info line, no 5xx.

interface LogEntry {
  level: number;
  msg: string;
  method?: string;
  route?: string;
}

describe("a client that leaves mid-body", () => {
  const lines: LogEntry[] = [];
  const sink = logSink(lines, (line) => JSON.parse(line));
  let database: Database;
  let app: App;
  let port: number;
  let requestsSeen = 0;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:" }), {
      database,
      logger: createLogger("info", sink),
    });
    app.server.on("request", () => requestsSeen++);
    port = await app.listen(0, "127.0.0.1");
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** Sends the head and half the body, waits until the server is handling the request, then leaves. */
  async function leaveMidBody(path: string, how: "reset" | "close"): Promise<void> {
    const body = `{"key":"kp_${"a".repeat(200)}"}`;
    const before = requestsSeen;
    const socket = connect({ port, host: "127.0.0.1" });
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, body.length / 2)}`,
    );
    await expect.poll(() => requestsSeen).toBe(before + 1);
    if (how === "reset") socket.resetAndDestroy();
    else socket.destroy();
  }

  const cases = [
    ["REST", "/api-keys", "/api-keys"],
    ["REST sign-in", "/auth/verify", "/auth/verify"],
    ["the verify fast route", "/api-keys/verify", "/api-keys/verify"],
    ["tRPC", "/trpc/auth.verify", "/trpc/auth.verify"],
    ["tRPC verify", "/trpc/keys.verify", "/trpc/keys.verify"],
  ] as const;

  for (const how of ["reset", "close"] as const) {
    it.each(cases)(`logs a ${how} on %s once, at info, as an abort`, async (_name, path, route) => {
      const before = lines.length;
      await leaveMidBody(path, how);
      await expect
        .poll(() => lines.slice(before).filter((entry) => entry.msg === "request aborted"))
        .toEqual([expect.objectContaining({ level: 30, method: "POST", route })]);
      // Nothing else: no warn or error, no "database unavailable", no request line with a status.
      expect(lines.slice(before)).toHaveLength(1);
    });
  }

  it("counts no aborted request as a 5xx (nor as an answer at all)", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    const samples = parsePrometheus(await response.text());
    const serverErrors = samples.filter((sample) => sample.name === "keyport_http_server_errors_total");
    expect(serverErrors.reduce((sum, sample) => sum + sample.value, 0)).toBe(0);
    const answered = samples.filter(
      (sample) => sample.name === "keyport_http_requests_total" && sample.labels.method === "POST",
    );
    expect(answered).toEqual([]);
    expect(lines.filter((entry) => entry.level >= 40)).toEqual([]);
  });
});
