import { request } from "@keyport/test-support/http";
import { labelValues, parsePrometheus, type Sample, sampleValue } from "@keyport/test-support/prometheus";
import { sendRaw } from "@keyport/test-support/raw-http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

const METRICS_TOKEN = "metrics-test-token-3f9a0c6d2b71";

async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await response.text());
}

describeDatabases("GET /metrics after real traffic", (target) => {
  let server: TestServer;
  let text: string;
  let samples: Sample[];
  let secrets: string[];

  beforeAll(async () => {
    server = await startTestServer(target, { USAGE_FLUSH_INTERVAL_MS: "20" });
    const session = await signIn(server.baseUrl);
    const { key, apiKey } = await createKeyOver(server.baseUrl, session.token, { name: "metrics" });
    expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");
    expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");
    expect((await verifyOver(server.baseUrl, "kp_not_a_key")).code).toBe("NOT_FOUND");
    const listed = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}`, {
      token: session.token,
    });
    expect(listed.status).toBe(200);
    expect((await request(server.baseUrl, "GET", `/no/such/${apiKey.id}`)).status).toBe(404);
    await trpcClient(server.baseUrl, session.token, false).keys.list.query({ wallet: session.wallet });
    secrets = [key, session.token, session.wallet, session.wallet.toLowerCase(), apiKey.id];
    // The flush runs on its own timer: wait until it has written the two VALID verifications.
    await vi.waitFor(
      async () => {
        const flushes = sampleValue(await scrape(server.baseUrl), "keyport_usage_flushes_total", {
          result: "ok",
        });
        expect(flushes).toBeGreaterThanOrEqual(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    const response = await fetch(`${server.baseUrl}/metrics`);
    text = await response.text();
    samples = parsePrometheus(text);
  });
  afterAll(() => server.close());

  it("counts requests by method, route template and status", () => {
    const count = (method: string, route: string, status: string) =>
      sampleValue(samples, "keyport_http_requests_total", { method, route, status });
    expect(count("POST", "/api-keys/verify", "200")).toBe(3);
    expect(count("POST", "/api-keys", "201")).toBe(1);
    expect(count("GET", "(unmatched)", "404")).toBe(1);
    expect(count("GET", "/trpc/keys.list", "200")).toBe(1);
    expect(
      sampleValue(samples, "keyport_http_request_duration_seconds_count", {
        method: "POST",
        route: "/api-keys/verify",
      }),
    ).toBe(3);
    // Only templates: the wallet and the key id of the real paths never became labels.
    const routes = labelValues(samples, "keyport_http_requests_total", "route");
    expect(routes.filter((route) => /^\/api-keys\/\{[A-Za-z]+\}$/.test(route))).toHaveLength(1);
    for (const route of routes)
      expect(route).toMatch(/^(\/[a-z-]*(\/[a-z.-]+|\/\{[A-Za-z]+\}|\/\(batch\))*|\(unmatched\))$/);
  });

  it("counts verification outcomes and key cache lookups", () => {
    expect(sampleValue(samples, "keyport_verifications_total", { outcome: "VALID" })).toBe(2);
    expect(sampleValue(samples, "keyport_verifications_total", { outcome: "NOT_FOUND" })).toBe(1);
    expect(sampleValue(samples, "keyport_verifications_total", { outcome: "REVOKED" })).toBe(0);
    const lookups = (result: string) => sampleValue(samples, "keyport_key_cache_lookups_total", { result });
    // "kp_not_a_key" fails the format check before any lookup; the real key is read, then cached. The
    // create's own announcement (which forgets unknown hashes on every instance) may arrive after the
    // first read and drop that entry once, so the second verification is a hit or a second read.
    expect(lookups("miss") + lookups("hit")).toBe(2);
    expect(lookups("miss")).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "keyport_key_cache_entries")).toBe(1);
  });

  it("reports the usage buffer, the database and the process", () => {
    expect(sampleValue(samples, "keyport_usage_flushes_total", { result: "ok" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "keyport_usage_rows_flushed_total")).toBeGreaterThanOrEqual(1);
    expect(samples.some((s) => s.name === "keyport_usage_buffer_pending_rows")).toBe(true);
    expect(sampleValue(samples, "keyport_db_up")).toBe(1);
    expect(sampleValue(samples, "keyport_db_pool_max_connections", { driver: target.kind })).toBeGreaterThan(
      0,
    );
    expect(sampleValue(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("holds no secret: not the key, the session token, the wallet or the key id", () => {
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describeDatabases("who may read /metrics", (target) => {
  let open: TestServer;
  let guarded: TestServer;
  beforeAll(async () => {
    open = await startTestServer(target);
    guarded = await startTestServer(target, { METRICS_TOKEN });
  });
  afterAll(async () => {
    await open.close();
    await guarded.close();
  });

  it("without METRICS_TOKEN, answers a loopback caller with no proxy header", async () => {
    await scrape(open.baseUrl);
  });

  it("without METRICS_TOKEN, refuses a request relayed by a proxy (X-Forwarded-For or Forwarded) with 403", async () => {
    const relayed: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.9" },
      { forwarded: "for=203.0.113.9" },
    ];
    for (const headers of relayed) {
      const response = await request(open.baseUrl, "GET", "/metrics", { headers });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: "FORBIDDEN" });
    }
  });

  it("without METRICS_TOKEN, refuses a proxy that sends only X-Real-IP (or Via, X-Forwarded-Host...) with 403", async () => {
    const relayed: Record<string, string>[] = [
      { "x-real-ip": "203.0.113.9" },
      { "x-forwarded-host": "keyport.example" },
      { "x-forwarded-proto": "https" },
      { "true-client-ip": "203.0.113.9" },
      { via: "1.1 proxy" },
    ];
    for (const headers of relayed) {
      const response = await sendRaw(open.baseUrl, { path: "/metrics", headers });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.text)).toMatchObject({ code: "FORBIDDEN" });
    }
  });

  it("without METRICS_TOKEN, refuses a loopback caller naming another Host (a DNS-rebound page) with 403", async () => {
    const port = new URL(open.baseUrl).port;
    const rebound = await sendRaw(open.baseUrl, {
      path: "/metrics",
      headers: { host: `rebound.example:${port}` },
    });
    expect(rebound.status).toBe(403);
    expect(rebound.text).not.toContain("keyport_");
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`])
      expect((await sendRaw(open.baseUrl, { path: "/metrics", headers: { host } })).status).toBe(200);
  });

  it("with METRICS_TOKEN, lets the token decide whatever the Host and forwarding headers say", async () => {
    const response = await sendRaw(guarded.baseUrl, {
      path: "/metrics",
      headers: {
        authorization: `Bearer ${METRICS_TOKEN}`,
        host: "rebound.example",
        "x-real-ip": "203.0.113.9",
      },
    });
    expect(response.status).toBe(200);
  });

  it("with METRICS_TOKEN, answers 401 in the envelope without the token or with a wrong one, 200 with it", async () => {
    for (const token of [undefined, "wrong-token-wrong-token", `${METRICS_TOKEN}x`]) {
      const response = await request(guarded.baseUrl, "GET", "/metrics", { token });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(response.body).toMatchObject({ code: "UNAUTHORIZED" });
    }
    const samples = await scrape(guarded.baseUrl, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(sampleValue(samples, "keyport_http_requests_total", { route: "/metrics", status: "401" })).toBe(3);
  });

  it("with METRICS_TOKEN, serves a proxied request that carries it, and never prints the token", async () => {
    const response = await fetch(`${guarded.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}`, "x-forwarded-for": "203.0.113.9" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain(METRICS_TOKEN);
  });
});
