import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { describeSkippedSuites, resolveTestServices } from "./services.js";

const servers: Server[] = [];
const accepted: Socket[] = [];
afterEach(async () => {
  for (const socket of accepted.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A loopback server answering every PING as Redis does. */
async function pongServer(): Promise<number> {
  const server = createServer((socket) => socket.on("data", () => socket.write("+PONG\r\n")));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function unreachable() {
  const port = await closedPort();
  return {
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    redisUrl: `redis://127.0.0.1:${port}`,
  };
}

describe("resolveTestServices", () => {
  it("uses the variables as given when they are set, without probing", async () => {
    const local = await unreachable();
    const services = await resolveTestServices(
      { TEST_DATABASE_URL: "postgres://db.invalid/test", TEST_REDIS_URL: "redis://redis.invalid" },
      { local },
    );
    expect(services).toEqual({
      databaseUrl: "postgres://db.invalid/test",
      redisUrl: "redis://redis.invalid",
    });
  });

  it("treats an empty variable as unset and leaves out a service that does not answer", async () => {
    const local = await unreachable();
    const started = performance.now();
    const services = await resolveTestServices({ TEST_DATABASE_URL: "", TEST_REDIS_URL: "" }, { local });
    expect(services).toEqual({ databaseUrl: undefined, redisUrl: undefined });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("uses the local Redis when it answers PING", async () => {
    const local = { ...(await unreachable()), redisUrl: `redis://127.0.0.1:${await pongServer()}` };
    const services = await resolveTestServices({}, { local });
    expect(services).toEqual({ databaseUrl: undefined, redisUrl: local.redisUrl });
  });

  it("gives up on a service that accepts the connection but never answers", async () => {
    const silent = createServer((socket) => accepted.push(socket));
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    const local = {
      databaseUrl: `postgres://postgres@127.0.0.1:${address.port}/postgres`,
      redisUrl: `redis://127.0.0.1:${address.port}`,
    };
    const services = await resolveTestServices({}, { local, timeoutMs: 200 });
    expect(services).toEqual({ databaseUrl: undefined, redisUrl: undefined });
  });
});

describe("describeSkippedSuites", () => {
  it("says nothing when both services are there", () => {
    expect(describeSkippedSuites({ databaseUrl: "postgres://x/y", redisUrl: "redis://x" })).toBeUndefined();
  });

  it("names the suites that did not run and how to run them, on one line", () => {
    const line = describeSkippedSuites({ databaseUrl: undefined, redisUrl: "redis://x" });
    expect(line).toContain("PostgreSQL suites");
    expect(line).not.toContain("Redis suites");
    expect(line).toContain("TEST_DATABASE_URL");
    expect(line).not.toContain("\n");
  });
});
