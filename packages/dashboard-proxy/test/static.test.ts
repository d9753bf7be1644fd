import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./support/proxy.js";

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head></html>';
const SECRET = "outside-the-folder-secret";

let root: string;
let proxy: RunningProxy;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "keyport-static-"));
  const dist = join(root, "dist");
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), INDEX);
  writeFileSync(join(dist, "assets", "index-abc123.js"), "console.log(1)");
  writeFileSync(join(dist, "assets", "index-abc123.css"), "body{}");
  writeFileSync(join(dist, "assets", "logo.svg"), "<svg/>");
  writeFileSync(join(dist, "assets", "font.woff2"), "wOF2");
  writeFileSync(join(dist, "favicon.ico"), "ico");
  writeFileSync(join(dist, ".env"), SECRET);
  writeFileSync(join(root, "secret.txt"), SECRET);
  proxy = await startProxy({ DASHBOARD_DIR: dist, PUBLIC_ORIGIN: "http://dashboard.test" });
});
afterAll(async () => {
  await proxy.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the dashboard at /", () => {
  it("serves index.html uncached, with the security headers", async () => {
    const page = await proxy.call("/");
    expect(page.status).toBe(200);
    expect(page.text).toBe(INDEX);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-security-policy"]).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(page.headers["x-frame-options"]).toBe("DENY");
  });

  it("answers a revalidation with 304 while index.html is unchanged", async () => {
    const first = await proxy.call("/index.html");
    const again = await proxy.call("/index.html", { headers: { "if-none-match": first.headers.etag ?? "" } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("caches hashed assets for a year, immutably, with their content types", async () => {
    const types: Record<string, string> = {
      "/assets/index-abc123.js": "text/javascript; charset=utf-8",
      "/assets/index-abc123.css": "text/css; charset=utf-8",
      "/assets/logo.svg": "image/svg+xml",
      "/assets/font.woff2": "font/woff2",
    };
    for (const [path, type] of Object.entries(types)) {
      const asset = await proxy.call(path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers["content-type"], path).toBe(type);
      expect(asset.headers["cache-control"], path).toBe("public, max-age=31536000, immutable");
      expect(asset.headers["content-security-policy"], path).toBeUndefined();
    }
    const icon = await proxy.call("/favicon.ico");
    expect(icon.headers["content-type"]).toBe("image/x-icon");
    expect(icon.headers["cache-control"]).toBe("no-cache");
  });

  it("answers HEAD with the headers and no body", async () => {
    const head = await proxy.call("/assets/index-abc123.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe("14");
    expect(head.text).toBe("");
  });

  it("falls back to index.html for the page's own routes", async () => {
    for (const path of ["/keys", "/usage/7d", "/markets/bitcoin"]) {
      const page = await proxy.call(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toBe(INDEX);
      expect(page.headers["cache-control"], path).toBe("no-cache");
    }
  });

  it("never falls back for /api and /trpc: their 404 is the JSON envelope", async () => {
    for (const path of ["/api/nothing", "/api", "/trpc", "/api/prices/nothing/here"]) {
      const miss = await proxy.call(path);
      expect(miss.status, path).toBe(404);
      expect(JSON.parse(miss.text), path).toMatchObject({ code: "NOT_FOUND" });
    }
  });

  it("answers a missing hashed asset with a 404 envelope, not the page", async () => {
    const miss = await proxy.call("/assets/index-old999.js");
    expect(miss.status).toBe(404);
    expect(miss.text).not.toContain("<html");
    expect(JSON.parse(miss.text)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses paths that step outside the folder or name dot-files", async () => {
    for (const path of [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/..%5csecret.txt",
      "/assets%5c..%5c..%5csecret.txt",
      "/index.html%00.js",
      "/.env",
      "/%2eenv",
      "/%E0%A4%A",
    ]) {
      const response = await proxy.raw(path);
      expect(response.text, path).not.toContain(SECRET);
      expect([400, 404].includes(response.status) || response.text === INDEX, path).toBe(true);
    }
  });
});

describe("without a built dashboard", () => {
  it("says at / that the dashboard is not built, and how to build it", async () => {
    const empty = await startProxy({ DASHBOARD_DIR: join(root, "missing") });
    try {
      const page = await empty.call("/");
      expect(page.status).toBe(404);
      expect(page.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(JSON.parse(page.text)).toMatchObject({ code: "NOT_FOUND" });
      expect(page.text).toContain("pnpm --filter @keyport/dashboard build");
      // Found by the fuzzer: a page path that resolves nowhere is an envelope too, never plain text.
      const odd = await empty.call("/markets/../bitcoin/../%2e?vs_currency=usd");
      expect(odd.status).toBeGreaterThanOrEqual(400);
      expect(odd.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect((await empty.call("/healthz")).status).toBe(200);
    } finally {
      await empty.close();
    }
  });
});

describe("GET /api/meta", () => {
  it("tells the page the CoinGecko plan and whether chat is configured, uncached", async () => {
    const meta = await proxy.call("/api/meta");
    expect(meta.status).toBe(200);
    expect(JSON.parse(meta.text)).toMatchObject({ coingeckoPlan: "demo", chat: false });
    expect(meta.headers["cache-control"]).toBe("no-store");
    const withChat = await startProxy({ AGENT_URL: "http://127.0.0.1:9/v1/chat/completions" });
    try {
      expect(JSON.parse((await withChat.call("/api/meta")).text)).toMatchObject({
        coingeckoPlan: "demo",
        chat: true,
      });
    } finally {
      await withChat.close();
    }
  });

  it("tells the page the Keyport server's URL for backends: KEYPORT_URL unless KEYPORT_PUBLIC_URL is set", async () => {
    expect(JSON.parse((await proxy.call("/api/meta")).text).serverUrl).toBe("http://127.0.0.1:3000");
    const moved = await startProxy({ KEYPORT_URL: "http://127.0.0.1:4100/" });
    const published = await startProxy({
      KEYPORT_URL: "http://127.0.0.1:4100",
      KEYPORT_PUBLIC_URL: "https://keys.example.com/",
    });
    try {
      expect(JSON.parse((await moved.call("/api/meta")).text).serverUrl).toBe("http://127.0.0.1:4100");
      expect(JSON.parse((await published.call("/api/meta")).text).serverUrl).toBe("https://keys.example.com");
    } finally {
      await moved.close();
      await published.close();
    }
  });
});

describe("the page on another address of this host", () => {
  const ELSEWHERE = "http://127.0.0.1:3001";

  it("serves the page and its scripts whatever the Origin, so it can say which address to open", async () => {
    for (const path of ["/", "/keys", "/assets/index-abc123.js", "/assets/index-abc123.css"]) {
      const answer = await proxy.call(path, { headers: { origin: ELSEWHERE } });
      expect(answer.status, path).toBe(200);
      expect(answer.headers["access-control-allow-origin"], path).toBeUndefined();
    }
    const head = await proxy.call("/assets/index-abc123.js", { method: "HEAD", headers: { origin: "null" } });
    expect(head.status).toBe(200);
  });

  it("still refuses that Origin on every route that acts or reads a wallet's data, and on the API", async () => {
    const post = await proxy.call("/api/session", {
      method: "POST",
      headers: { origin: ELSEWHERE, "content-type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(403);
    for (const path of [
      "/api/session",
      "/trpc/keys.list",
      "/api/meta",
      "/api/prices/simple?ids=bitcoin&vs=usd",
    ]) {
      expect((await proxy.call(path, { headers: { origin: ELSEWHERE } })).status, path).toBe(403);
    }
    const postPage = await proxy.call("/keys", { method: "POST", headers: { origin: ELSEWHERE } });
    expect(postPage.status).toBe(403);
  });

  it("names PUBLIC_ORIGIN and the chains that sign in in /api/meta", async () => {
    expect(JSON.parse((await proxy.call("/api/meta")).text)).toMatchObject({
      publicOrigin: "http://dashboard.test",
      signInChainIds: [1],
    });
    const base = await startProxy({ SIWE_CHAIN_IDS: "8453, 1" });
    try {
      expect(JSON.parse((await base.call("/api/meta")).text).signInChainIds).toEqual([8453, 1]);
    } finally {
      await base.close();
    }
  });
});
