import { request } from "@keyport/test-support/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}

describe("/openapi.json on the top-up", () => {
  let database: Awaited<ReturnType<typeof openTestPglite>>;
  let server: TestServer;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer({ database, url: "memory:" });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it("declares X-API-Key as a security scheme, PAYMENT-SIGNATURE in, PAYMENT-REQUIRED and PAYMENT-RESPONSE out", async () => {
    const { status, body } = await request(server.baseUrl, "GET", "/openapi.json");
    expect(status).toBe(200);
    const document = body as {
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, { post?: Operation }>;
    };
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
    const topUp = document.paths["/api-keys/{id}/top-up"]?.post;
    expect(topUp?.security).toEqual([{ sessionToken: [] }, { apiKey: [] }]);
    expect(topUp?.parameters).toContainEqual(
      expect.objectContaining({ name: "PAYMENT-SIGNATURE", in: "header", required: false }),
    );
    expect(Object.keys(topUp?.responses["402"]?.headers ?? {})).toContain("PAYMENT-REQUIRED");
    expect(Object.keys(topUp?.responses["200"]?.headers ?? {})).toContain("PAYMENT-RESPONSE");
  });
});
