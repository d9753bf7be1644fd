import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { forTier } from "./support/tier.js";

interface ListedKey {
  id: string;
  name: string;
  start: string;
  status: string;
  createdAt: string;
  lastUsedAt: string | null;
}
interface ListBody {
  keys: ListedKey[];
  nextCursor: string | null;
  total: number;
}

// name, minutes after the base time it was created, minutes after it was last used (null: never).
// Equal times make ties that only the id orders, across page boundaries of 3.
const KEYS: [string, number, number | null][] = [
  ["Payments prod", 0, 5],
  ["payments staging", 1, null],
  ["PAYMENTS dev", 1, 5],
  ["100% off", 1, null],
  ["a_b", 2, 7],
  ["axb", 2, 7],
  ["alpha", 3, null],
  ["Alpha", 3, 1],
  ["beta", 4, 7],
  ["zeta", 5, null],
  ["gamma", 6, 2],
];
const BASE = Date.parse("2030-01-01T00:00:00.000Z");
const minutes = (count: number) => new Date(BASE + count * 60_000);

describeDatabases("keys list: search, sort and total", (target) => {
  let server: TestServer;
  let session: { token: string; wallet: string };
  const byName = new Map<string, { id: string; start: string }>();

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
    const db = target.database.db;
    for (const [name, created, used] of KEYS) {
      const { apiKey } = await createKeyOver(server.baseUrl, session.token, { name });
      const [row] = await db
        .update(apiKeys)
        .set({ createdAt: minutes(created), lastUsedAt: used === null ? null : minutes(used) })
        .where(eq(apiKeys.id, apiKey.id))
        .returning({ start: apiKeys.start });
      byName.set(name, { id: apiKey.id, start: row?.start ?? "" });
    }
    const zeta = byName.get("zeta")?.id ?? "";
    expect(
      (await request(server.baseUrl, "DELETE", `/api-keys/${zeta}`, { token: session.token })).status,
    ).toBe(200);
  });
  afterAll(() => server.close());

  async function list(query: Record<string, string | number> = {}): Promise<ListBody> {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const { status, body } = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}?${search}`, {
      token: session.token,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return body as ListBody;
  }

  async function status(query: string): Promise<{ status: number; message: string }> {
    const answer = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}?${query}`, {
      token: session.token,
    });
    const body = answer.body as { message?: string };
    return { status: answer.status, message: body.message ?? "" };
  }

  /** Every page of a sort, `limit` at a time, with the total each page reported. */
  async function walk(query: Record<string, string>, limit: number) {
    const ids: string[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const page: ListBody = await list({ ...query, limit, ...(cursor === null ? {} : { cursor }) });
      expect(page.keys.length).toBeLessThanOrEqual(limit);
      ids.push(...page.keys.map((key) => key.id));
      totals.add(page.total);
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    return { ids, totals: [...totals] };
  }

  const names = (keys: ListedKey[]) => keys.map((key) => key.name);

  it("searches names by substring in any case, and counts only the matches in total", async () => {
    const found = await list({ q: "PAYments" });
    expect(names(found.keys).sort()).toEqual(["PAYMENTS dev", "Payments prod", "payments staging"]);
    expect(found.total).toBe(3);
    const paged = await list({ q: "  ayment ", limit: 1 });
    expect(paged.keys).toHaveLength(1);
    expect(paged.total).toBe(3);
  });

  it("finds a key by a prefix of its start, and not by a piece from its middle", async () => {
    const gamma = byName.get("gamma")?.start ?? "";
    const found = await list({ q: gamma });
    expect(names(found.keys)).toEqual(["gamma"]);
    expect(found.total).toBe(1);
    expect((await list({ q: gamma.slice(0, 3) })).total).toBe(KEYS.length);
    expect((await list({ q: gamma.slice(2) })).total).toBe(0);
  });

  it("matches % and _ literally, not as LIKE wildcards", async () => {
    expect(names((await list({ q: "%" })).keys)).toEqual(["100% off"]);
    expect(names((await list({ q: "a_b" })).keys)).toEqual(["a_b"]);
    expect(names((await list({ q: "_" })).keys)).toEqual(["a_b"]);
    expect((await list({ q: "\\" })).total).toBe(0);
    expect((await list({ q: "%%%" })).total).toBe(0);
  });

  it("counts the keys matching status and search together, and all of them with neither", async () => {
    expect((await list()).total).toBe(KEYS.length);
    expect((await list({ limit: 2 })).total).toBe(KEYS.length);
    expect((await list({ status: "active" })).total).toBe(KEYS.length - 1);
    expect((await list({ status: "revoked" })).total).toBe(1);
    expect((await list({ status: "revoked", q: "eta" })).total).toBe(1);
    expect((await list({ status: "active", q: "eta" })).total).toBe(1);
    expect((await list({ status: "expired" })).total).toBe(0);
    expect(await list({ q: "no such key" })).toEqual({
      keys: [],
      nextCursor: null,
      total: 0,
      activeKeyCap: expect.any(Number),
    });
  });

  it("pages every sort in both orders across pages, each key exactly once, in the sort's order", async () => {
    for (const sort of ["created", "lastUsed", "name"]) {
      for (const order of ["desc", "asc"]) {
        const whole = await list({ sort, order, limit: 100 });
        expect(whole.nextCursor).toBeNull();
        // Pages of one key cross every boundary; pages of 3 and 4 (slow tier) cross ties of other sizes.
        for (const limit of forTier({ fast: [1], slow: [1, 3, 4] })) {
          const walked = await walk({ sort, order }, limit);
          expect(walked.ids, `${sort} ${order} by ${limit}`).toEqual(whole.keys.map((key) => key.id));
          expect(walked.totals).toEqual([KEYS.length]);
        }
        expect(new Set(whole.keys.map((key) => key.id)).size).toBe(KEYS.length);
        const sign = order === "asc" ? 1 : -1;
        const pairs = whole.keys.slice(1).map((key, index) => [whole.keys[index], key] as const);
        for (const [before, after] of pairs) {
          if (before === undefined) continue;
          if (sort === "created") {
            expect(
              sign * (Date.parse(after.createdAt) - Date.parse(before.createdAt)),
            ).toBeGreaterThanOrEqual(0);
          }
          if (sort === "lastUsed" && before.lastUsedAt !== null && after.lastUsedAt !== null) {
            expect(
              sign * (Date.parse(after.lastUsedAt) - Date.parse(before.lastUsedAt)),
            ).toBeGreaterThanOrEqual(0);
          }
        }
      }
    }
  });

  it("sorts never-used keys last in both orders of lastUsed", async () => {
    const neverUsed = KEYS.filter(([, , used]) => used === null).length;
    for (const order of ["desc", "asc"]) {
      const { keys } = await list({ sort: "lastUsed", order });
      const used = keys.map((key) => key.lastUsedAt !== null);
      expect(used).toEqual([...Array(KEYS.length - neverUsed).fill(true), ...Array(neverUsed).fill(false)]);
    }
    expect((await list({ sort: "lastUsed", order: "desc" })).keys[0]?.lastUsedAt).toBe(
      minutes(7).toISOString(),
    );
    expect((await list({ sort: "lastUsed", order: "asc" })).keys[0]?.name).toBe("Alpha");
  });

  it("sorts names without regard to case, A to Z with asc and Z to A with desc", async () => {
    const asc = names((await list({ sort: "name", order: "asc", q: "a" })).keys);
    const at = (name: string) => asc.indexOf(name);
    expect(Math.abs(at("alpha") - at("Alpha"))).toBe(1);
    expect(at("Alpha")).toBeLessThan(at("beta"));
    expect(at("beta")).toBeLessThan(at("gamma"));
    expect(at("gamma")).toBeLessThan(at("Payments prod"));
    expect(at("PAYMENTS dev")).toBeLessThan(at("Payments prod"));
    expect(at("Payments prod")).toBeLessThan(at("payments staging"));
    expect(at("payments staging")).toBeLessThan(at("zeta"));
    const desc = names((await list({ sort: "name", order: "desc", q: "a" })).keys);
    expect(desc[0]).toBe("zeta");
  });

  it("keeps search and status while paging a sort", async () => {
    const walked = await walk({ sort: "name", order: "asc", q: "a", status: "active" }, 2);
    const whole = await list({ sort: "name", order: "asc", q: "a", status: "active" });
    expect(walked.ids).toEqual(whole.keys.map((key) => key.id));
    expect(walked.totals).toEqual([whole.keys.length]);
    expect(names(whole.keys)).not.toContain("zeta");
  });

  it("refuses a bad sort, order or search, and a cursor of another sort or order, with 400", async () => {
    expect((await status("sort=size")).status).toBe(400);
    expect((await status("sort=lastused")).status).toBe(400);
    expect((await status("order=up")).status).toBe(400);
    expect((await status(`q=${"a".repeat(101)}`)).status).toBe(400);
    expect((await status(`q=${"a".repeat(100)}`)).status).toBe(200);
    const byName = await list({ sort: "name", limit: 2 });
    const cursor = encodeURIComponent(byName.nextCursor ?? "");
    for (const query of [
      `cursor=${cursor}`,
      `sort=name&order=asc&cursor=${cursor}`,
      `sort=lastUsed&cursor=${cursor}`,
    ]) {
      const refused = await status(query);
      expect(refused.status, query).toBe(400);
      expect(refused.message).toMatch(/another sort or order/);
    }
    expect((await status(`sort=name&cursor=${cursor}`)).status).toBe(200);
    expect((await status("sort=name&cursor=bm90LWEtY3Vyc29y")).status).toBe(400);
  });

  it("accepts a newest-first cursor of an older server ([createdAt, id])", async () => {
    const first = await list({ limit: 2 });
    const last = first.keys.at(-1);
    const old = Buffer.from(JSON.stringify([last?.createdAt, last?.id])).toString("base64url");
    const next = await list({ limit: 2, cursor: old });
    const walked = await walk({}, 2);
    expect(next.keys.map((key) => key.id)).toEqual(walked.ids.slice(2, 4));
  });

  it("answers the same over tRPC, with a mismatched cursor as BAD_REQUEST", async () => {
    const client = trpcClient(server.baseUrl, session.token);
    const page = await client.keys.list.query({
      wallet: session.wallet,
      q: "payments",
      sort: "name",
      order: "asc",
      limit: 2,
    });
    expect(page.keys.map((key) => key.name)).toEqual(["PAYMENTS dev", "Payments prod"]);
    expect(page.total).toBe(3);
    const cursor = page.nextCursor ?? "";
    const rest = await client.keys.list.query({
      wallet: session.wallet,
      q: "payments",
      sort: "name",
      order: "asc",
      cursor,
    });
    expect(rest.keys.map((key) => key.name)).toEqual(["payments staging"]);
    expect(rest.keys[0]?.createdAt).toBeInstanceOf(Date);
    const refused = await client.keys.list.query({ wallet: session.wallet, sort: "created", cursor }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused instanceof TRPCClientError ? refused.data?.code : null).toBe("BAD_REQUEST");
    const everything = await client.keys.list.query({ wallet: session.wallet });
    expect(everything.total).toBe(KEYS.length);
  });

  it("keeps the default answer: newest first, total, and no new fields beyond total", async () => {
    const body = await list();
    expect(Object.keys(body).sort()).toEqual(["activeKeyCap", "keys", "nextCursor", "total"]);
    const [count] = await target.database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(apiKeys)
      .where(eq(apiKeys.wallet, session.wallet));
    expect(body.total).toBe(count?.n);
    expect(body.keys[0]?.name).toBe("gamma");
  });
});
