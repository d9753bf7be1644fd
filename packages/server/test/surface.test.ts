import { request } from "@keyport/test-support/http";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_ROUTES } from "../src/routers/rest.js";
import { describeDatabases, openTestPglite } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

describeDatabases("HTTP surface", (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(() => server.close());

  it("serves /openapi.json that validates as OpenAPI 3.1", async () => {
    const { status, body } = await request(server.baseUrl, "GET", "/openapi.json");
    expect(status).toBe(200);
    const result = await new Validator().validate(JSON.parse(JSON.stringify(body)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(body).toMatchObject({ openapi: "3.1.0" });
  });

  it("documents every REST route with request, response, error schemas and bearer security", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const doc = JSON.parse(JSON.stringify(body));
    expect(doc.components.securitySchemes.sessionToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Error).toBeDefined();
    const expected: [string, string, string][] = [
      ["/auth/nonce", "post", "200"],
      ["/auth/verify", "post", "200"],
      ["/auth/session", "get", "200"],
      ["/auth/logout", "post", "200"],
      ["/api-keys", "post", "201"],
      ["/api-keys/{walletOrId}", "get", "200"],
      ["/api-keys/{walletOrId}", "patch", "200"],
      ["/api-keys/{walletOrId}", "delete", "200"],
      ["/api-keys/{id}/roll", "post", "201"],
    ];
    for (const [path, method, success] of expected) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses[success].content["application/json"].schema).toBeDefined();
      expect(operation.responses["400"].content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/Error",
      });
      expect(operation.description.length).toBeGreaterThan(20);
    }
    expect(doc.paths["/api-keys"].post.requestBody.content["application/json"].schema).toBeDefined();
    expect(doc.paths["/api-keys"].post.security).toEqual([{ sessionToken: [] }]);
    expect(doc.paths["/auth/verify"].post.security).toEqual([]);
    // The operator API: a token of the scope, or an operator session; tokens are a session's alone.
    expect(doc.paths["/operator/events"].get.security).toEqual([{ operatorToken: [] }, { sessionToken: [] }]);
    expect(doc.paths["/operator/events"].get["x-operator-scope"]).toBe("wallets:read");
    expect(doc.paths["/operator/tokens"].post.security).toEqual([{ sessionToken: [] }]);
    expect(doc.paths["/operator/events"].get.tags).toEqual(["operator"]);
    expect(doc.paths["/api-keys/{id}/roll"].post.description).toMatch(/grace/);
    // Every answer, success or error, documents the request id it carries.
    const headerRef = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };
    expect(doc.paths["/api-keys"].post.responses["201"].headers).toEqual(headerRef);
    expect(doc.paths["/api-keys"].post.responses["500"].headers).toEqual(headerRef);
    expect(doc.components.headers.RequestId.schema.pattern).toBe("^[A-Za-z0-9._-]{1,64}$");
    expect(doc.components.schemas.Error.properties.requestId.type).toBe("string");
  });

  it("serves every REST route, PATCH included, under its method in /openapi.json", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const doc = JSON.parse(JSON.stringify(body));
    // OpenAPI's notion of one path: the template with its parameter names erased.
    const shape = (template: string) => template.replace(/\{[^}]*\}/g, "{}");
    const served = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${shape(path)}`),
    );
    const routes = REST_ROUTES.map((route) => `${route.method} ${shape(route.path)}`);
    expect(routes).toContain("PATCH /api-keys/{}");
    // The list and the one-key read are one shape, so one operation (OpenAPI allows one GET a path).
    expect(routes.filter((route) => route === "GET /api-keys/{}")).toHaveLength(2);
    expect(served.sort()).toEqual([...new Set(routes)].sort());
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: JSON.stringify(body),
      absoluteRef: "/openapi.json",
      config,
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it("declares the license, and security: [] on exactly the public operations", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const doc = JSON.parse(JSON.stringify(body));
    expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
    const publicOps: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.security, `${method} ${path}`).toBeDefined();
        if (operation.security?.length === 0) publicOps.push(`${method} ${path}`);
      }
    }
    // A top-up takes the owner's session or the key's own secret: either scheme (test/openapi-top-up.test.ts).
    expect(publicOps.sort()).toEqual(
      [
        "post /api-keys/introspect",
        "post /api-keys/report-leak",
        "post /api-keys/verify",
        "post /auth/nonce",
        "post /auth/verify",
        "get /meta",
        "get /plans",
      ].sort(),
    );
  });

  it("describes list, get, update and revoke as one path item whose parameter each method reads its own way", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const doc = JSON.parse(JSON.stringify(body));
    expect(doc.paths["/api-keys/{wallet}"]).toBeUndefined();
    expect(doc.paths["/api-keys/{id}"]).toBeUndefined();
    const item = doc.paths["/api-keys/{walletOrId}"];
    const parameter = (method: string) =>
      item[method].parameters.find((p: { in: string }) => p.in === "path");
    expect(parameter("get")).toMatchObject({ name: "walletOrId", required: true });
    expect(parameter("get").description).toMatch(/GET reads this segment as a key id .* or else as a wallet/);
    expect(parameter("get").schema.oneOf.map((s: { pattern: string }) => s.pattern)).toEqual([
      "^0x[0-9a-fA-F]{40}$",
      expect.stringMatching(/^\^key_/),
    ]);
    // One GET answers either read: the list's body or the key's, and both operations' errors.
    const answer = item.get.responses["200"].content["application/json"].schema;
    expect(answer.oneOf.map((s: { required: string[] }) => s.required)).toEqual([
      ["keys", "nextCursor", "total", "activeKeyCap"],
      ["apiKey"],
    ]);
    expect(Object.keys(item.get.responses)).toEqual(["200", "400", "401", "403", "404", "500", "503"]);
    expect(item.get.parameters.find((p: { name: string }) => p.name === "status").description).toMatch(
      /^Listing only/,
    );
    expect(parameter("patch")).toMatchObject({ name: "walletOrId", required: true });
    expect(parameter("patch").description).toMatch(/PATCH reads this segment as a key id/);
    expect(parameter("patch").schema.pattern).toMatch(/^\^key_/);
    expect(item.patch.requestBody.content["application/json"].schema).toBeDefined();
    expect(parameter("delete")).toMatchObject({ name: "walletOrId", required: true });
    expect(parameter("delete").description).toMatch(/DELETE reads this segment as a key id/);
    expect(parameter("delete").schema.pattern).toMatch(/^\^key_/);
  });

  it("takes each operation's success and error statuses from the REST table", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const doc = JSON.parse(JSON.stringify(body));
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
    expect(statuses("/api-keys", "post")).toEqual([
      "201",
      "400",
      "401",
      "403",
      "409",
      "413",
      "415",
      "500",
      "503",
    ]);
    expect(statuses("/api-keys/{walletOrId}", "delete")).toEqual(["200", "400", "401", "404", "500", "503"]);
    expect(statuses("/api-keys/verify", "post")).toEqual(["200", "400", "413", "415", "500", "503"]);
    // Roll reads a missing body as {}: its body is optional, create's is not.
    expect(doc.paths["/api-keys/{id}/roll"].post.requestBody.required).toBe(false);
    expect(doc.paths["/api-keys"].post.requestBody.required).toBe(true);
  });

  it("serves an HTML API reference at /docs that loads /openapi.json (details: docs-page.test.ts)", async () => {
    const response = await fetch(`${server.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("/openapi.json");
    expect(html).toContain('<script src="/docs/scalar.js');
  });

  it("answers unknown routes with 404 without echoing the path", async () => {
    const { status, body } = await request(server.baseUrl, "GET", "/verify/kp_secretLookingThing");
    expect(status).toBe(404);
    expect(body).toEqual({ code: "NOT_FOUND", message: "No such route" });
  });

  it("answers /healthz with ok when the database answers", async () => {
    expect(await request(server.baseUrl, "GET", "/healthz")).toMatchObject({
      status: 200,
      body: { ok: true },
    });
  });
});

describe("/healthz without a database", () => {
  it("answers 503 once the database is gone", async () => {
    const database = await openTestPglite();
    const server = await startTestServer({ database, url: "memory:" });
    try {
      await database.close();
      const { status, body } = await request(server.baseUrl, "GET", "/healthz");
      expect(status).toBe(503);
      expect(body).toMatchObject({ ok: false, code: "SERVICE_UNAVAILABLE" });
    } finally {
      await server.close();
    }
  });
});
