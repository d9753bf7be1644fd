import { request } from "@keyport/test-support/http";
import { parsePrometheus, sampleValue } from "@keyport/test-support/prometheus";
import { signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { apiKeys } from "../src/db/schema/index.js";
import { hashKey, newKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

async function misses(baseUrl: string): Promise<number> {
  const samples = parsePrometheus(await (await fetch(`${baseUrl}/metrics`)).text());
  return sampleValue(samples, "keyport_key_cache_lookups_total", { result: "miss" });
}

describeDatabases("unknown keys", (target) => {
  let a: TestServer;
  let b: TestServer;
  let token: string;

  beforeAll(async () => {
    // Two instances on one database: the invalidation bus (LISTEN/NOTIFY) links their caches.
    a = await startTestServer(target);
    b = await startTestServer(target);
    ({ token } = await signIn(a.baseUrl));
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it("cost one database read per forged key, however often it is sent", async () => {
    const forged = Array.from({ length: 20 }, () => newKey("kp").key);
    const before = await misses(a.baseUrl);
    for (let round = 0; round < 10; round++) {
      for (const key of forged) expect((await verifyOver(a.baseUrl, key)).code).toBe("NOT_FOUND");
    }
    expect((await misses(a.baseUrl)) - before).toBe(forged.length);
  });

  const announcers: Array<[string, () => Promise<unknown>]> = [
    ["a create", () => createKeyOver(a.baseUrl, token, { name: "any other key" })],
    [
      "a roll",
      async () => {
        const other = await createKeyOver(b.baseUrl, token, { name: "to roll" });
        // The create above (on b) clears every cache, when its announcement arrives: remember the hash
        // as unknown again once it has.
        await hideSettled();
        const rolled = await request(a.baseUrl, "POST", `/api-keys/${other.apiKey.id}/roll`, {
          token,
          body: {},
        });
        expect(rolled.status).toBe(201);
      },
    ],
  ];
  let hide: () => Promise<void> = async () => undefined;
  // A create's announcement reaches the instances a moment after its answer, and forgets the unknown
  // hashes remembered meanwhile: hiding is repeated until it holds (it never does if nothing is remembered).
  const hideSettled = () => vi.waitFor(hide, { timeout: 5_000, interval: 100 });

  it.each(announcers)(
    "never hide a key that exists: %s forgets every unknown hash, here at once and on the other instance within 1 s",
    async (_name, announce) => {
      // Only the server mints secrets, so a key whose hash was already remembered as unknown is made
      // by hand: create it, take its hash away in the database, verify (now unknown), put it back.
      const made = await createKeyOver(a.baseUrl, token, { name: "late" });
      const setHash = (hash: string) =>
        target.database.db.update(apiKeys).set({ hash }).where(eq(apiKeys.id, made.apiKey.id));
      hide = async () => {
        await setHash(hashKey(newKey("kp").key));
        expect((await verifyOver(a.baseUrl, made.key)).code).toBe("NOT_FOUND");
        expect((await verifyOver(b.baseUrl, made.key)).code).toBe("NOT_FOUND");
        await setHash(hashKey(made.key));
        // Both instances still answer from their negative cache: nothing was announced.
        expect((await verifyOver(a.baseUrl, made.key)).code).toBe("NOT_FOUND");
        expect((await verifyOver(b.baseUrl, made.key)).code).toBe("NOT_FOUND");
      };
      await hideSettled();

      await announce();
      expect((await verifyOver(a.baseUrl, made.key)).code).toBe("VALID");
      const started = Date.now();
      await expect
        .poll(async () => (await verifyOver(b.baseUrl, made.key)).code, { timeout: 1_000, interval: 50 })
        .toBe("VALID");
      expect(Date.now() - started).toBeLessThan(1_000);
    },
  );
});
