import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, newAccount, postVerify } from "@keyport/test-support/siwe";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAUNCH_TIMEOUT_MS, type Launcher, launch, ROOT, serviceLog } from "./support/launcher.js";
import { removeRedisKeys, sharedRedisEnv } from "./support/server.js";

// Slow tier: `pnpm start` (scripts/start.mjs) builds everything and starts both servers
// (docs/configuration.md, Running). The SIWE domains it gives the server name only where the dashboard
// is served: a signature for bare `localhost` (port 80, where no dashboard runs) must not sign anyone in.

const run = promisify(execFile);
const redisUrl = process.env.TEST_REDIS_URL || undefined;

/** The ```sh blocks of one `## ` section of a docs page, as written. */
function shellBlocks(page: string, heading: string): string[] {
  const markdown = readFileSync(join(ROOT, page), "utf8");
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`no section "${heading}" in ${page}`);
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
}

describe("pnpm start", () => {
  let launcher: Launcher;
  let serverUrl: string;
  // With TEST_REDIS_URL, both services on it under one REDIS_KEY_PREFIX given to the launcher.
  const redisEnv = redisUrl === undefined ? {} : sharedRedisEnv(redisUrl);

  beforeAll(async () => {
    launcher = await launch("start", [], redisEnv);
    serverUrl = `http://127.0.0.1:${launcher.serverPort}`;
  }, LAUNCH_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await launcher?.close();
    await removeRedisKeys(redisEnv);
  }, 30_000);

  it("accepts a sign-in for the dashboard's host and refuses one for bare localhost", async () => {
    const signInFor = async (domain: string) => {
      const account = newAccount();
      const message = buildSiweMessage(account, await fetchNonce(serverUrl), {
        domain,
        uri: `http://${domain}/`,
      });
      return (await postVerify(serverUrl, account, message)).status;
    };
    expect(await signInFor(`localhost:${launcher.dashboardPort}`)).toBe(200);
    expect(await signInFor("localhost")).toBe(401);
  });

  it("signs in with the REST walk-through's commands, as written, after pnpm start", async () => {
    const blocks = shellBlocks("docs/rest-walkthrough.md", "Sign in");
    expect(blocks).toHaveLength(2);
    // The second shell of the walk-through: KEYPORT_URL, and DASHBOARD_PORT as pnpm start was given it.
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      KEYPORT_URL: `http://localhost:${launcher.serverPort}`,
      DASHBOARD_PORT: String(launcher.dashboardPort),
    };
    for (const block of blocks) {
      const { stdout } = await run("bash", ["-c", `${block}\nprintf '%s %s' "$TOKEN" "$WALLET"`], {
        cwd: ROOT,
        env,
      });
      const [token = "", wallet = ""] = stdout.trim().split(" ");
      expect(token).toMatch(/^kps_/);
      const session = await request(serverUrl, "GET", "/auth/session", { token });
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ wallet });
    }
  });

  it("says in its banner and in the server's log that payments are off", () => {
    expect(launcher.banner).toMatch(/^Payments: off \(PAYMENTS_NETWORK is unset/m);
    expect(serviceLog(launcher.output(), "server")).toContainEqual(
      expect.objectContaining({ payments: "off", msg: expect.stringMatching(/^payments off/) }),
    );
  });

  it.skipIf(redisUrl === undefined)(
    "gives the proxy its own Redis namespace under the REDIS_KEY_PREFIX it was given",
    async () => {
      const prefix = redisEnv.REDIS_KEY_PREFIX ?? "";
      // A nonce counts against the server's limit per client; a proxy route against the proxy's.
      await fetchNonce(serverUrl);
      expect((await fetch(`http://127.0.0.1:${launcher.dashboardPort}/api/meta`)).status).toBe(200);
      const redis = new Redis(redisUrl ?? "");
      try {
        const keys = await redis.keys(`${prefix}*`);
        const proxyKeys = keys.filter((key) => key.startsWith(`${prefix}proxy:`));
        expect(proxyKeys.length).toBeGreaterThan(0);
        expect(keys.length).toBeGreaterThan(proxyKeys.length);
      } finally {
        redis.disconnect();
      }
    },
  );
});

describe("HOST=127.0.0.1 pnpm start", () => {
  let launcher: Launcher;

  beforeAll(async () => {
    launcher = await launch("start", [], { HOST: "127.0.0.1" });
  }, LAUNCH_TIMEOUT_MS + 10_000);

  afterAll(() => launcher?.close(), 30_000);

  it("prints a dashboard link whose page signs in through the proxy", async () => {
    const link = /dashboard (http:\/\/\S+)/.exec(launcher.banner)?.[1] ?? "";
    expect(link).toBe(`http://127.0.0.1:${launcher.dashboardPort}`);
    expect((await fetch(link)).status).toBe(200);

    // What the dashboard's page does there: sign a message for its own host, post it with its Origin.
    const serverUrl = `http://127.0.0.1:${launcher.serverPort}`;
    const account = newAccount();
    const { host } = new URL(link);
    const message = buildSiweMessage(account, await fetchNonce(serverUrl), { domain: host, uri: `${link}/` });
    const signedIn = await request(link, "POST", "/api/session", {
      body: { message, signature: await account.signMessage({ message }) },
      headers: { origin: link },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ wallet: account.address });
    expect(signedIn.headers.get("set-cookie")).toMatch(/HttpOnly/i);
  });
});
