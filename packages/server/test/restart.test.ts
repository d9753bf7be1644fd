import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { createDatabase } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { spawnServer } from "./support/process.js";

describe("restarting on the same PGlite data dir", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "keyport-restart-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps every key and session", async () => {
    const env = parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const first = await createApp(env);
    const firstUrl = `http://127.0.0.1:${await first.listen(0, "127.0.0.1")}`;
    const { token, wallet } = await signIn(firstUrl);
    const ids: string[] = [];
    for (const name of ["a", "b", "c"]) {
      const { body } = await request(firstUrl, "POST", "/api-keys", { token, body: { name } });
      ids.push((body as { apiKey: { id: string } }).apiKey.id);
    }
    await request(firstUrl, "DELETE", `/api-keys/${ids[0]}`, { token });
    await first.close();

    const second = await createApp(env);
    const secondUrl = `http://127.0.0.1:${await second.listen(0, "127.0.0.1")}`;
    try {
      const { status, body } = await request(secondUrl, "GET", `/api-keys/${wallet}`, { token });
      expect(status).toBe(200);
      const keys = (body as { keys: { id: string; status: string }[] }).keys;
      expect(keys.map((k) => k.id).sort()).toEqual([...ids].sort());
      expect(keys.find((k) => k.id === ids[0])?.status).toBe("revoked");
    } finally {
      await second.close();
    }
  });
});

describe.runIf(TEST_DATABASE_URL)("migrating one PostgreSQL database from two processes at once", () => {
  it("applies the migrations once, without errors", async () => {
    if (!TEST_DATABASE_URL) return;
    const target = await createPostgresTestDatabase(TEST_DATABASE_URL);
    try {
      const [a, b] = await Promise.all([createDatabase(target.url, ""), createDatabase(target.url, "")]);
      await a.ping();
      await b.ping();
      await Promise.all([a.close(), b.close()]);
    } finally {
      await target.drop();
    }
  });
});

describe("the server process", () => {
  it("starts with `tsx src/main.ts` and exits 0 on SIGTERM after finishing", async () => {
    const server = await spawnServer({ DATABASE_URL: "memory:" });
    expect((await request(server.baseUrl, "GET", "/healthz")).status).toBe(200);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.output()).toContain("stopped");
  });

  it("refuses to start with invalid settings and says which", async () => {
    await expect(spawnServer({ KEY_PREFIX: "NOT VALID", DATABASE_URL: "memory:" })).rejects.toThrow(
      /exited with 1[\s\S]*KEY_PREFIX/,
    );
  });
});

describe.runIf(TEST_DATABASE_URL)("two server processes on one PostgreSQL database", () => {
  it("start together, share keys, and each stops cleanly on SIGTERM", async () => {
    if (!TEST_DATABASE_URL) return;
    const target = await createPostgresTestDatabase(TEST_DATABASE_URL);
    try {
      const [a, b] = await Promise.all([
        spawnServer({ DATABASE_URL: target.url }),
        spawnServer({ DATABASE_URL: target.url }),
      ]);
      const { token, wallet } = await signIn(a.baseUrl);
      await request(a.baseUrl, "POST", "/api-keys", { token, body: { name: "shared" } });
      const { body } = await request(b.baseUrl, "GET", `/api-keys/${wallet}`, { token });
      expect((body as { keys: { name: string }[] }).keys.map((k) => k.name)).toEqual(["shared"]);
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    } finally {
      await target.drop();
    }
  });
});
