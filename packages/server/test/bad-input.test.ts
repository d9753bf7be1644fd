import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, sessions, siweNonces } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

interface Case {
  name: string;
  method: string;
  path: string;
  status: number;
  code: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  /** Send without the session token. */
  anonymous?: boolean;
}

const BIG = JSON.stringify({ name: "x".repeat(70 * 1024) });
const POST_ROUTES = [
  "/auth/nonce",
  "/auth/verify",
  "/auth/logout",
  "/api-keys",
  "/api-keys/{id}/roll",
  "/api-keys/verify",
];

function casesFor(wallet: string, id: string): Case[] {
  const withId = (path: string) => path.replace("{id}", id);
  const perPostRoute = POST_ROUTES.flatMap((route): Case[] => [
    {
      name: `malformed JSON on ${route}`,
      method: "POST",
      path: withId(route),
      rawBody: '{"name":',
      contentType: "application/json",
      status: 400,
      code: "PARSE_ERROR",
    },
    {
      name: `oversized body on ${route}`,
      method: "POST",
      path: withId(route),
      rawBody: BIG,
      contentType: "application/json",
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
    },
    {
      name: `text/plain body on ${route}`,
      method: "POST",
      path: withId(route),
      rawBody: "{}",
      contentType: "text/plain",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    },
    {
      name: `form body on ${route}`,
      method: "POST",
      path: withId(route),
      rawBody: "a=1",
      contentType: "application/x-www-form-urlencoded",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    },
  ]);
  return [
    ...perPostRoute,
    // auth/verify
    {
      name: "verify with wrong types",
      method: "POST",
      path: "/auth/verify",
      body: { message: 1, signature: true },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "verify with a non-hex signature",
      method: "POST",
      path: "/auth/verify",
      body: { message: "m", signature: "zz" },
      status: 400,
      code: "BAD_REQUEST",
    },
    { name: "verify with no body", method: "POST", path: "/auth/verify", status: 400, code: "BAD_REQUEST" },
    // create
    {
      name: "create with a numeric name",
      method: "POST",
      path: "/api-keys",
      body: { name: 5 },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with an empty name",
      method: "POST",
      path: "/api-keys",
      body: { name: "" },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a 65-character name",
      method: "POST",
      path: "/api-keys",
      body: { name: "n".repeat(65) },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a control character in the name",
      method: "POST",
      path: "/api-keys",
      body: { name: "a\u0007b" },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a non-date expiresAt",
      method: "POST",
      path: "/api-keys",
      body: { name: "x", expiresAt: "tomorrow" },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a past expiresAt",
      method: "POST",
      path: "/api-keys",
      body: { name: "x", expiresAt: "2001-01-01T00:00:00Z" },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a rate limit of 0",
      method: "POST",
      path: "/api-keys",
      body: { name: "x", rateLimit: { limit: 0, windowSeconds: 1 } },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a string rate limit",
      method: "POST",
      path: "/api-keys",
      body: { name: "x", rateLimit: { limit: "5", windowSeconds: 1 } },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a window over a day",
      method: "POST",
      path: "/api-keys",
      body: { name: "x", rateLimit: { limit: 5, windowSeconds: 86_401 } },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a bad wallet",
      method: "POST",
      path: "/api-keys",
      body: { name: "x", wallet: "0x1234" },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create with a JSON array body",
      method: "POST",
      path: "/api-keys",
      body: [{ name: "x" }],
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "create without a token",
      method: "POST",
      path: "/api-keys",
      body: { name: "x" },
      anonymous: true,
      status: 401,
      code: "UNAUTHORIZED",
    },
    // list
    {
      name: "list with a short wallet",
      method: "GET",
      path: "/api-keys/0x1234",
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list with a non-hex wallet",
      method: "GET",
      path: `/api-keys/0x${"g".repeat(40)}`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list with limit 0",
      method: "GET",
      path: `/api-keys/${wallet}?limit=0`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list with limit 101",
      method: "GET",
      path: `/api-keys/${wallet}?limit=101`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list with a non-numeric limit",
      method: "GET",
      path: `/api-keys/${wallet}?limit=ten`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list with an unknown status",
      method: "GET",
      path: `/api-keys/${wallet}?status=deleted`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list with a forged cursor",
      method: "GET",
      path: `/api-keys/${wallet}?cursor=abc`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "list without a token",
      method: "GET",
      path: `/api-keys/${wallet}`,
      anonymous: true,
      status: 401,
      code: "UNAUTHORIZED",
    },
    // revoke
    {
      name: "revoke with a bad id",
      method: "DELETE",
      path: "/api-keys/nope",
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "revoke with a badly encoded id",
      method: "DELETE",
      path: "/api-keys/%E0%A4%A",
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "revoke with an encoded slash in the id",
      method: "DELETE",
      path: `/api-keys/${id}%2Froll`,
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "revoke an unknown id",
      method: "DELETE",
      path: "/api-keys/key_ZZZZZZZZZZZZZZZZZZZZZZ",
      status: 404,
      code: "NOT_FOUND",
    },
    {
      name: "revoke without a token",
      method: "DELETE",
      path: `/api-keys/${id}`,
      anonymous: true,
      status: 401,
      code: "UNAUTHORIZED",
    },
    // roll
    {
      name: "roll with a negative grace period",
      method: "POST",
      path: `/api-keys/${id}/roll`,
      body: { gracePeriodSeconds: -1 },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "roll with a grace period over a week",
      method: "POST",
      path: `/api-keys/${id}/roll`,
      body: { gracePeriodSeconds: 604_801 },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "roll with a string grace period",
      method: "POST",
      path: `/api-keys/${id}/roll`,
      body: { gracePeriodSeconds: "60" },
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "roll with an array body",
      method: "POST",
      path: `/api-keys/${id}/roll`,
      body: [1],
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "roll with a bad id",
      method: "POST",
      path: "/api-keys/key_!/roll",
      body: {},
      status: 400,
      code: "BAD_REQUEST",
    },
    {
      name: "roll without a token",
      method: "POST",
      path: `/api-keys/${id}/roll`,
      body: {},
      anonymous: true,
      status: 401,
      code: "UNAUTHORIZED",
    },
    // logout
    {
      name: "logout without a token",
      method: "POST",
      path: "/auth/logout",
      anonymous: true,
      status: 401,
      code: "UNAUTHORIZED",
    },
    // unknown
    { name: "an unknown route", method: "GET", path: "/nope", status: 404, code: "NOT_FOUND" },
    {
      name: "a known path with the wrong method",
      method: "PUT",
      path: "/api-keys",
      body: {},
      status: 404,
      code: "NOT_FOUND",
    },
  ];
}

describeDatabases("bad input on every route", (target) => {
  let server: TestServer;
  let session: { token: string; wallet: string };
  let keyId: string;

  async function snapshot() {
    const { db } = target.database;
    return {
      keys: await db.select().from(apiKeys).orderBy(asc(apiKeys.id)),
      sessions: await db.select().from(sessions).orderBy(asc(sessions.tokenHash)),
      nonces: await db.select().from(siweNonces).orderBy(asc(siweNonces.nonce)),
    };
  }

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
    const created = await request(server.baseUrl, "POST", "/api-keys", {
      token: session.token,
      body: { name: "existing" },
    });
    keyId = (created.body as { apiKey: { id: string } }).apiKey.id;
  });
  afterAll(() => server.close());

  it("gets the right 4xx with code and message, no internals, and changes nothing", async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const c of casesFor(session.wallet, keyId)) {
      const headers: Record<string, string> = {};
      if (c.contentType) headers["content-type"] = c.contentType;
      const response = await request(server.baseUrl, c.method, c.path, {
        token: c.anonymous ? undefined : session.token,
        body: c.body,
        rawBody: c.rawBody,
        headers,
      });
      const body = response.body;
      const ok =
        response.status === c.status &&
        typeof body === "object" &&
        body !== null &&
        "code" in body &&
        body.code === c.code &&
        "message" in body &&
        typeof body.message === "string" &&
        !/stack|select |insert |update |kps_|at \//i.test(JSON.stringify(body));
      if (!ok) failures.push(`${c.name}: got ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      if (
        c.code === "BAD_REQUEST" &&
        c.body !== undefined &&
        !Array.isArray(c.body) &&
        response.status === 400
      ) {
        // Schema failures name the offending fields.
        if (typeof body === "object" && body !== null && "issues" in body && !Array.isArray(body.issues)) {
          failures.push(`${c.name}: issues is not a list`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("lists validation issues with a path and a message", async () => {
    const { status, body } = await request(server.baseUrl, "POST", "/api-keys", {
      token: session.token,
      body: { name: "", rateLimit: { limit: 0, windowSeconds: 1 } },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.any(String),
      issues: expect.arrayContaining([
        { path: ["name"], message: expect.any(String) },
        { path: ["rateLimit", "limit"], message: expect.any(String) },
      ]),
    });
  });

  it("accepts application/json with a charset parameter", async () => {
    const { status } = await request(server.baseUrl, "POST", "/api-keys", {
      token: session.token,
      rawBody: JSON.stringify({ name: "charset" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(status).toBe(201);
  });

  it("answers 413 on /trpc for an oversized body too", async () => {
    const { status } = await request(server.baseUrl, "POST", "/trpc/keys.create", {
      token: session.token,
      rawBody: JSON.stringify({ json: { name: "x".repeat(70 * 1024) } }),
      headers: { "content-type": "application/json" },
    });
    expect(status).toBe(413);
  });
});
