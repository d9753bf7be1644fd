import type { PrivateKeyAccount } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cookieHeader, setCookies } from "./support/cookies.js";
import { type RunningKeyport, startKeyport } from "./support/keyport-server.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";
import { newAccount, nonceThroughProxy, signedMessage } from "./support/siwe.js";

// The sessions page works through the proxy's /trpc forward, and what it lists is the browser's
// sign-in (its User-Agent and address), not the proxy's (docs/dashboard-proxy.md).

const HOST = "dashboard.test:3001";
const ORIGIN = `http://${HOST}`;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

let keyport: RunningKeyport;
let proxy: RunningProxy;

beforeAll(async () => {
  keyport = await startKeyport({ SIWE_DOMAINS: HOST });
  proxy = await startProxy({ KEYPORT_URL: keyport.url, PUBLIC_ORIGIN: ORIGIN });
});
afterAll(async () => {
  await proxy.close();
  await keyport.close();
});

async function signIn(account: PrivateKeyAccount, headers: Record<string, string>): Promise<string> {
  const nonce = await nonceThroughProxy(proxy.url, ORIGIN);
  const response = await proxy.open("/api/session", {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
    body: JSON.stringify(await signedMessage(account, HOST, nonce)),
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
  return cookieHeader(setCookies(response));
}

const call = (path: string, cookie: string, body?: unknown) =>
  proxy.open(`/trpc/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      origin: ORIGIN,
      cookie,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

interface Listed {
  id: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

async function listed(cookie: string): Promise<Listed[]> {
  const response = await call("auth.sessions", cookie);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { data: { json: { sessions: Listed[] } } } };
  return body.result.data.json.sessions;
}

it("lists the wallet's sessions with the browser's User-Agent and address, and ends one and all others", async () => {
  const account = newAccount();
  const first = await signIn(account, { "user-agent": CHROME, "x-forwarded-for": "198.51.100.23" });
  const second = await signIn(account, { "user-agent": "Second browser" });
  const third = await signIn(account, { "user-agent": "Third browser" });

  const sessions = await listed(first);
  expect(sessions.map((session) => [session.userAgent, session.current])).toEqual([
    ["Third browser", false],
    ["Second browser", false],
    [CHROME, true],
  ]);
  expect(sessions[2]?.ip).toBe("198.51.100.23");
  expect(JSON.stringify(sessions)).not.toContain("kps_");

  const secondId = sessions[1]?.id ?? "";
  const ended = await call("auth.endSession", first, { json: { id: secondId } });
  expect(ended.status).toBe(200);
  // The ended browser's next request is refused, and its cookies cleared.
  const refused = await call("auth.session", second);
  expect(refused.status).toBe(401);
  expect(refused.headers.get("set-cookie")).toContain("keyport_session=;");

  const others = await call("auth.endOtherSessions", first, {});
  expect(others.status).toBe(200);
  expect(await others.json()).toMatchObject({ result: { data: { json: { ended: 1 } } } });
  expect((await call("auth.session", third)).status).toBe(401);
  expect((await listed(first)).map((session) => session.current)).toEqual([true]);
});
