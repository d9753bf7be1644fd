import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

type Session = { token: string; wallet: string };
type KeyBody = { id: string; allowedIps: string[] | null };
type Issue = { path: (string | number)[]; message: string };

describeDatabases("IP allow-lists", (target) => {
  let a: TestServer;
  let b: TestServer;
  let session: Session;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "1000" }),
      startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "1000" }),
    ]);
    session = await signIn(a.baseUrl);
  });
  afterAll(() => Promise.all([a?.close(), b?.close()]));

  const create = (body: Record<string, unknown>, s: Session = session) =>
    createKeyOver(a.baseUrl, s.token, { name: "ip key", ...body });
  const patch = (id: string, body: Record<string, unknown>) =>
    request(a.baseUrl, "PATCH", `/api-keys/${id}`, { token: session.token, body });
  const codeFor = async (key: string, ip?: string) =>
    (await verifyOver(a.baseUrl, key, ip === undefined ? {} : { ip })).code;

  describe("on the key", () => {
    it("stores entries normalised and shows them on create, in the list and over tRPC", async () => {
      const entries = [
        "10.1.2.3/8",
        "192.168.0.7",
        "2001:DB8:ffff::/32",
        "::ffff:172.16.5.4/108",
        "10.0.0.0/8",
      ];
      const { apiKey } = await create({ allowedIps: entries });
      const stored = ["10.0.0.0/8", "192.168.0.7/32", "2001:db8::/32", "172.16.0.0/12"];
      expect((apiKey as unknown as KeyBody).allowedIps).toEqual(stored);
      const list = await request(a.baseUrl, "GET", `/api-keys/${session.wallet}`, { token: session.token });
      const listed = (list.body as { keys: KeyBody[] }).keys.find((k) => k.id === apiKey.id);
      expect(listed?.allowedIps).toEqual(stored);
      const overTrpc = await trpcClient(a.baseUrl, session.token).keys.create.mutate({
        name: "trpc ip key",
        allowedIps: ["2001:0db8:0000::1"],
      });
      expect(overTrpc.apiKey.allowedIps).toEqual(["2001:db8::1/128"]);
    });

    it("is null (any address) unless given", async () => {
      const { apiKey, key } = await create({});
      expect((apiKey as unknown as KeyBody).allowedIps).toBeNull();
      expect(await codeFor(key)).toBe("VALID");
      expect(await codeFor(key, "203.0.113.1")).toBe("VALID");
    });

    it("refuses a bad entry with a 400 naming it, on create and PATCH", async () => {
      const created = await request(a.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name: "bad", allowedIps: ["10.0.0.0/8", "10.0.0.1/33", "not-an-ip"] },
      });
      expect(created.status).toBe(400);
      const issues = (created.body as { issues: Issue[] }).issues;
      expect(issues).toEqual([
        { path: ["allowedIps", 1], message: '"10.0.0.1/33" is not an IPv4 or IPv6 address or CIDR block' },
        { path: ["allowedIps", 2], message: '"not-an-ip" is not an IPv4 or IPv6 address or CIDR block' },
      ]);
      const { apiKey } = await create({});
      const patched = await patch(apiKey.id, { allowedIps: ["fe80::1%eth0"] });
      expect(patched.status).toBe(400);
      expect((patched.body as { issues: Issue[] }).issues[0]).toMatchObject({ path: ["allowedIps", 0] });
    });

    it("takes 100 entries and refuses 101, and refuses an empty list", async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => `10.0.${i}.0/24`);
      expect(((await create({ allowedIps: hundred })).apiKey as unknown as KeyBody).allowedIps).toHaveLength(
        100,
      );
      const tooMany = await request(a.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name: "many", allowedIps: [...hundred, "10.1.0.0/24"] },
      });
      expect(tooMany.status).toBe(400);
      expect((tooMany.body as { issues: Issue[] }).issues[0]?.path).toEqual(["allowedIps"]);
      const empty = await request(a.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name: "empty", allowedIps: [] },
      });
      expect(empty.status).toBe(400);
    });

    it("PATCH sets, replaces and clears it (null allows any address), records it and reaches every instance", async () => {
      const s = await signIn(a.baseUrl);
      const { apiKey, key } = await create({}, s);
      const set = await request(a.baseUrl, "PATCH", `/api-keys/${apiKey.id}`, {
        token: s.token,
        body: { allowedIps: ["198.51.100.0/24"] },
      });
      expect((set.body as { apiKey: KeyBody }).apiKey.allowedIps).toEqual(["198.51.100.0/24"]);
      await expect
        .poll(async () => (await verifyOver(b.baseUrl, key, { ip: "203.0.113.1" })).code)
        .toBe("IP_NOT_ALLOWED");
      expect((await verifyOver(b.baseUrl, key, { ip: "198.51.100.255" })).code).toBe("VALID");
      const cleared = await request(a.baseUrl, "PATCH", `/api-keys/${apiKey.id}`, {
        token: s.token,
        body: { allowedIps: null },
      });
      expect((cleared.body as { apiKey: KeyBody }).apiKey.allowedIps).toBeNull();
      await expect
        .poll(async () => (await verifyOver(b.baseUrl, key, { ip: "203.0.113.1" })).code)
        .toBe("VALID");
      expect((await verifyOver(b.baseUrl, key)).code).toBe("VALID");
      const events = await request(a.baseUrl, "GET", `/api-keys/${s.wallet}/events?keyId=${apiKey.id}`, {
        token: s.token,
      });
      const changes = (
        events.body as { events: { action: string; changes: Record<string, unknown> }[] }
      ).events.map((event) => [event.action, event.changes.allowedIps]);
      expect(changes).toEqual([
        ["key.updated", null],
        ["key.updated", ["198.51.100.0/24"]],
        ["key.created", null],
      ]);
    });

    it("is inherited by a rolled key", async () => {
      const { apiKey } = await create({ allowedIps: ["10.0.0.0/8"] });
      const rolled = await request(a.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, {
        token: session.token,
        body: {},
      });
      const body = rolled.body as { key: string; apiKey: KeyBody };
      expect(body.apiKey.allowedIps).toEqual(["10.0.0.0/8"]);
      expect(await codeFor(body.key, "11.0.0.1")).toBe("IP_NOT_ALLOWED");
      expect(await codeFor(body.key, "10.0.0.1")).toBe("VALID");
    });
  });

  describe("on verify", () => {
    it("takes the first and last address of each block and refuses the ones just outside", async () => {
      const { key } = await create({ allowedIps: ["192.168.7.200/30", "2001:db8:1::/48"] });
      const cases: [string, string][] = [
        ["192.168.7.200", "VALID"],
        ["192.168.7.203", "VALID"],
        ["192.168.7.199", "IP_NOT_ALLOWED"],
        ["192.168.7.204", "IP_NOT_ALLOWED"],
        ["2001:db8:1::", "VALID"],
        ["2001:db8:1:ffff:ffff:ffff:ffff:ffff", "VALID"],
        ["2001:db8:0:ffff:ffff:ffff:ffff:ffff", "IP_NOT_ALLOWED"],
        ["2001:db8:2::", "IP_NOT_ALLOWED"],
        ["2001:DB8:1:0:0:0:0:1", "VALID"],
      ];
      for (const [ip, code] of cases) expect([ip, await codeFor(key, ip)]).toEqual([ip, code]);
    });

    it("matches an IPv4-mapped IPv6 address against its IPv4 block", async () => {
      const { key } = await create({ allowedIps: ["10.0.0.0/8"] });
      expect(await codeFor(key, "::ffff:10.20.30.40")).toBe("VALID");
      expect(await codeFor(key, "::ffff:a14:1e28")).toBe("VALID");
      expect(await codeFor(key, "::ffff:11.20.30.40")).toBe("IP_NOT_ALLOWED");
      expect(await codeFor(key, "::a14:1e28")).toBe("IP_NOT_ALLOWED");
    });

    it("refuses a verification without ip, answering IP_NOT_ALLOWED with the key's identity and no window or balance", async () => {
      const { key, apiKey } = await create({ allowedIps: ["10.0.0.0/8"], meta: { c: 1 } });
      expect(await verifyOver(a.baseUrl, key)).toEqual({
        valid: false,
        code: "IP_NOT_ALLOWED",
        keyId: apiKey.id,
        wallet: session.wallet,
        expiresAt: null,
        ratelimit: null,
        ratelimits: [],
        permissions: [],
        credits: null,
        meta: { c: 1 },
        plan: { id: "free", name: "Free" },
      });
    });

    it("answers 400 for an ip that is no address, on REST and tRPC", async () => {
      const { key } = await create({ allowedIps: ["10.0.0.0/8"] });
      for (const ip of ["10.0.0.256", "10.0.0.1/32", "localhost", "", "[::1]", "fe80::1%eth0", 42]) {
        const rest = await request(a.baseUrl, "POST", "/api-keys/verify", { body: { key, ip } });
        expect([ip, rest.status]).toEqual([ip, 400]);
        expect((rest.body as { issues: Issue[] }).issues[0]?.path).toEqual(["ip"]);
      }
      const trpc = await request(a.baseUrl, "POST", "/trpc/keys.verify", {
        body: { json: { key, ip: "nope" } },
      });
      expect(trpc.status).toBe(400);
      await expect(trpcClient(a.baseUrl).keys.verify.mutate({ key, ip: "10.2.3.4" })).resolves.toMatchObject({
        code: "VALID",
      });
      await expect(
        trpcClient(a.baseUrl, undefined, false).keys.verify.mutate({ key, ip: "9.2.3.4" }),
      ).resolves.toMatchObject({ code: "IP_NOT_ALLOWED" });
    });

    it("spends no rate limit and no credits on a refusal", async () => {
      const { key } = await create({
        allowedIps: ["10.0.0.0/8"],
        rateLimit: { limit: 3, windowSeconds: 60 },
        credits: { remaining: 5 },
      });
      const before = await verifyOver(a.baseUrl, key, { ip: "10.0.0.1" });
      expect(before).toMatchObject({ code: "VALID", ratelimit: { remaining: 2 }, credits: { remaining: 4 } });
      for (let i = 0; i < 5; i++) {
        expect(await verifyOver(a.baseUrl, key, { ip: "11.0.0.1", cost: 2 })).toMatchObject({
          code: "IP_NOT_ALLOWED",
          ratelimit: null,
          credits: null,
        });
      }
      expect(await verifyOver(a.baseUrl, key)).toMatchObject({ code: "IP_NOT_ALLOWED" });
      expect(await verifyOver(a.baseUrl, key, { ip: "10.0.0.2" })).toMatchObject({
        code: "VALID",
        ratelimit: { remaining: 1 },
        credits: { remaining: 3 },
      });
    });

    it("comes after REVOKED and EXPIRED and before INSUFFICIENT_PERMISSIONS", async () => {
      const { key, apiKey } = await create({ allowedIps: ["10.0.0.0/8"], permissions: ["a"] });
      expect(await verifyOver(a.baseUrl, key, { ip: "11.0.0.1", permissions: ["b"] })).toMatchObject({
        code: "IP_NOT_ALLOWED",
      });
      expect(await verifyOver(a.baseUrl, key, { ip: "10.0.0.1", permissions: ["b"] })).toMatchObject({
        code: "INSUFFICIENT_PERMISSIONS",
      });
      await request(a.baseUrl, "DELETE", `/api-keys/${apiKey.id}`, { token: session.token });
      expect(await codeFor(key, "11.0.0.1")).toBe("REVOKED");
      expect(await codeFor(key)).toBe("REVOKED");
    });

    it("counts IP_NOT_ALLOWED in usage as ipNotAllowed", async () => {
      const s = await signIn(a.baseUrl);
      const { key, apiKey } = await create({ allowedIps: ["10.0.0.0/8"] }, s);
      await verifyOver(a.baseUrl, key, { ip: "11.0.0.1" });
      await verifyOver(a.baseUrl, key);
      await verifyOver(a.baseUrl, key, { ip: "10.0.0.1" });
      await expect
        .poll(async () => {
          await a.app.services.verification.usage.flush();
          const usage = await request(a.baseUrl, "GET", `/api-keys/${s.wallet}/usage?keyId=${apiKey.id}`, {
            token: s.token,
          });
          const body = usage.body as { totals: Record<string, number>; keys: Record<string, unknown>[] };
          return { totals: body.totals, key: body.keys[0] };
        })
        .toMatchObject({
          totals: { requests: 3, ipNotAllowed: 2, valid: 1 },
          key: { keyId: apiKey.id, ipNotAllowed: 2 },
        });
    });
  });
});
