import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { forTier } from "./support/tier.js";

// On the embedded database live sessions are remembered in memory (auth/session-memo.ts); on
// PostgreSQL every request looks its session up. Either way a session that ended is refused at once.

const TTL_SECONDS = 600;

describeDatabases("sessions remembered between requests", (target) => {
  const clock = useMovableDate();
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const env = { SESSION_TTL_SECONDS: String(TTL_SECONDS) };
    first = await startTestServer(target, env);
    second = await startTestServer(target, env);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  const session = (server: TestServer, token: string) =>
    request(server.baseUrl, "GET", "/auth/session", { token }).then((answer) => answer.status);
  const logout = (server: TestServer, token: string) =>
    request(server.baseUrl, "POST", "/auth/logout", { token }).then((answer) => answer.status);

  it("refuses a signed-out token at once on every app of the database, both having just answered it", async () => {
    const { token } = await signIn(first.baseUrl);
    expect(await session(first, token)).toBe(200);
    expect(await session(second, token)).toBe(200);
    expect(await logout(second, token)).toBe(200);
    expect(await session(first, token)).toBe(401);
    expect(await session(second, token)).toBe(401);
  });

  it("refuses a token once its sign-out has answered, however many lookups of it were under way", async () => {
    // Each round is a new race: 3 in `pnpm test`, 8 in the slow tier.
    for (let round = 0; round < forTier({ fast: 3, slow: 8 }); round++) {
      const { token } = await signIn(first.baseUrl);
      // Lookups still reading the session while the sign-out ends it must not leave it remembered.
      const racing = Array.from({ length: 24 }, (_, i) => session(i % 2 === 0 ? first : second, token));
      const out = logout(first, token);
      const racingAfter = Array.from({ length: 8 }, () => session(second, token));
      expect(await out).toBe(200);
      await Promise.all([...racing, ...racingAfter]);
      for (const server of [first, second, first, second]) expect(await session(server, token)).toBe(401);
    }
  });

  it("refuses a remembered session once it has expired", async () => {
    const { token } = await signIn(first.baseUrl);
    expect(await session(first, token)).toBe(200);
    clock.advance((TTL_SECONDS - 60) * 1000);
    expect(await session(first, token)).toBe(200);
    clock.advance(61_000);
    expect(await session(first, token)).toBe(401);
    expect(await session(second, token)).toBe(401);
  });
});
