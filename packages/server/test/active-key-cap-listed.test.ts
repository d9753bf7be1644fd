import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

describeDatabases("the active-key cap in the key list", (target) => {
  let capped: TestServer;
  let standard: TestServer;

  beforeAll(async () => {
    [capped, standard] = await Promise.all([
      startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "3" }),
      startTestServer(target),
    ]);
  });
  afterAll(() => Promise.all([capped?.close(), standard?.close()]));

  it("names the configured MAX_ACTIVE_KEYS_PER_WALLET on every page, over REST and tRPC", async () => {
    const session = await signIn(capped.baseUrl);
    const rest = await request(capped.baseUrl, "GET", `/api-keys/${session.wallet}?limit=1`, {
      token: session.token,
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ keys: [], nextCursor: null, activeKeyCap: 3 });

    const listed = await trpcClient(capped.baseUrl, session.token).keys.list.query({
      wallet: session.wallet,
    });
    expect(listed.activeKeyCap).toBe(3);
  });

  it("names the default, 50, when the setting is left out", async () => {
    const session = await signIn(standard.baseUrl);
    const rest = await request(standard.baseUrl, "GET", `/api-keys/${session.wallet}`, {
      token: session.token,
    });
    expect(rest.body).toMatchObject({ activeKeyCap: 50 });
  });
});
