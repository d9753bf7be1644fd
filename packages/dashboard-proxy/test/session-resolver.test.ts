import { H3, serve } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionResolver } from "../src/session/resolver.js";
import { createKeyportClient } from "../src/upstream/keyport.js";
import { type KeyportStandIn, startKeyportStandIn } from "./support/keyport-stand-in.js";

const ORIGIN = "http://dashboard.test";
const TOKEN = "kps_resolverTestToken0123456789abcd";
const WALLET = "0x00000000000000000000000000000000000000aa";

let keyport: KeyportStandIn;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  keyport = await startKeyportStandIn();
  const resolver = createSessionResolver({
    keyport: createKeyportClient({ baseUrl: keyport.url, timeoutMs: 2_000 }),
    publicOrigin: ORIGIN,
  });
  const app = new H3();
  app.post("/who", async (event) => ({ session: await resolver.resolveSession(event) }));
  const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
  await server.ready();
  url = (server.url ?? "").replace(/\/$/, "");
  close = () => server.close(true);
});
afterAll(async () => {
  await close();
  await keyport.close();
});

const who = async (headers: Record<string, string>) =>
  (await (await fetch(`${url}/who`, { method: "POST", headers })).json()).session;

describe("resolveSession", () => {
  it("asks the server on every lookup, so a session ended anywhere is refused at once", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    keyport.behave({ kind: "answer", status: 200, body: JSON.stringify({ wallet: WALLET, expiresAt }) });
    const headers = { origin: ORIGIN, cookie: `keyport_session=${TOKEN}` };
    expect(await who(headers)).toEqual({ wallet: WALLET });
    expect(await who(headers)).toEqual({ wallet: WALLET });
    expect(keyport.requests.map((request) => [request.method, request.url])).toEqual([
      ["GET", "/auth/session"],
      ["GET", "/auth/session"],
    ]);
    expect(keyport.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    // Ended on the server (another instance, the REST logout): the very next lookup sees it.
    keyport.behave({
      kind: "answer",
      status: 401,
      body: '{"code":"UNAUTHORIZED","message":"Not signed in"}',
    });
    expect(await who(headers)).toBeNull();
    expect(keyport.requests).toHaveLength(3);
  });

  it("finds nobody without the cookie, or for another site's page, without asking the server", async () => {
    keyport.requests.length = 0;
    expect(await who({ origin: ORIGIN })).toBeNull();
    expect(await who({ origin: "https://evil.example", cookie: `keyport_session=${TOKEN}` })).toBeNull();
    expect(await who({ cookie: `keyport_session=${TOKEN}` })).toBeNull();
    expect(keyport.requests).toEqual([]);
  });
});
