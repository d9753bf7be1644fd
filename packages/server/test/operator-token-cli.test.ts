import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { request } from "@keyport/test-support/http";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { parseEnv } from "../src/env.js";

// Slow tier: `pnpm -s operator-token ...` as docs/operator.md writes it, against an embedded database
// (a child process that opens it, and a server that then accepts the token it printed).

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

async function operatorToken(dataDir: string, ...args: string[]) {
  return run("pnpm", ["-s", "operator-token", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" },
  });
}

async function startOn(dataDir: string) {
  const app = await createApp(parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: "silent", NONCE_RATE_LIMIT: "off" }));
  const port = await app.listen(0, "127.0.0.1");
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

describe("the operator-token command", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "keyport-operator-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints a token once on stdout that the server then accepts for its scopes only, lists and revokes it", {
    timeout: 300_000,
  }, async () => {
    const created = await operatorToken(
      dataDir,
      "create",
      "--name",
      "billing job",
      "--scope",
      "wallets:read",
    );
    const token = created.stdout.trim();
    expect(token).toMatch(/^kpo_[0-9A-Za-z]{38}$/);
    expect(created.stderr).toContain('"billing job" with wallets:read');

    const listed = await operatorToken(dataDir, "list");
    expect(listed.stdout).toContain("billing job");
    expect(listed.stdout).not.toContain(token);
    const id = /^(opt_[0-9A-Za-z]{22})/.exec(listed.stdout)?.[1] ?? "";

    const server = await startOn(dataDir);
    try {
      expect((await request(server.baseUrl, "GET", "/operator/events", { token })).status).toBe(200);
      const events = await request(server.baseUrl, "GET", "/operator/events", { token });
      expect(events.body).toMatchObject({ events: [{ action: "token.created", actor: { type: "cli" } }] });
      expect((await request(server.baseUrl, "GET", "/operator/tokens", { token })).status).toBe(403);

      // The embedded database is this server's while it runs: the command is refused, naming it.
      const refused = await operatorToken(dataDir, "revoke", id).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(`open in process ${process.pid}`),
      });
    } finally {
      await server.app.close();
    }
    await operatorToken(dataDir, "revoke", id);
    const again = await startOn(dataDir);
    try {
      expect((await request(again.baseUrl, "GET", "/operator/events", { token })).status).toBe(401);
    } finally {
      await again.app.close();
    }
  });

  it("refuses an unknown scope with its list, and stores nothing", async () => {
    const refused = await operatorToken(dataDir, "create", "--name", "x", "--scope", "tokens:write").catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining("scopes: wallets:read") });
    const listed = await operatorToken(dataDir, "list");
    expect(listed.stdout).not.toContain(" x  ");
  });
});
