import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { createDatabase } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { request } from "./support/server.js";
import { signIn } from "./support/siwe.js";

const serverDir = fileURLToPath(new URL("..", import.meta.url));

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
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: "memory:", PORT: "0", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"port":(\d+).*keyport server listening/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once("exit", () => reject(new Error(`server exited early: ${output}`)));
    });
    expect((await request(`http://127.0.0.1:${port}`, "GET", "/healthz")).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("stopped");
  });

  it("refuses to start with invalid settings and says which", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: serverDir,
      env: { ...process.env, KEY_PREFIX: "NOT VALID", DATABASE_URL: "memory:" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toMatch(/KEY_PREFIX/);
  });
});
