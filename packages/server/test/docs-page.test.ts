import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { openTestPglite } from "./support/databases.js";

// /docs once loaded an unpinned script from a CDN (blank offline, a third party trusted).
// Now the page and the pinned @scalar/api-reference bundle both come from this server.

const PACKAGE_ROOT = dirname(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")));
const PINNED_VERSION = "1.72.1";
// What a page would fetch from elsewhere: a CDN or any absolute URL in a src/href.
const THIRD_PARTY = /jsdelivr|unpkg|https?:\/\/cdn\.|cdnjs|esm\.sh|skypack/i;

describe("/docs", () => {
  let database: Database;
  let app: App;
  let baseUrl: string;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", LOG_LEVEL: "silent" }), { database });
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("serves a page whose only script is this server's, configured by a data attribute", async () => {
    const response = await fetch(`${baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const [, attributes = "", inline = ""] = scripts[0] ?? [];
    expect(inline.trim()).toBe(""); // no inline script: the CSP needs no 'unsafe-inline' for scripts
    expect(attributes).toMatch(new RegExp(`src="/docs/scalar\\.js\\?v=${PINNED_VERSION}"`));
    expect(html).not.toMatch(THIRD_PARTY);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const configuration = /data-configuration="([^"]*)"/.exec(html)?.[1]?.replaceAll("&quot;", '"');
    expect(JSON.parse(configuration ?? "null")).toMatchObject({
      url: "/openapi.json",
      withDefaultFonts: false,
    });
  });

  it("turns off the reference's cloud features (Ask AI, MCP, the client link, the share and deploy toolbar, telemetry)", async () => {
    const html = await (await fetch(`${baseUrl}/docs`)).text();
    const configuration = /data-configuration="([^"]*)"/.exec(html)?.[1]?.replaceAll("&quot;", '"');
    expect(JSON.parse(configuration ?? "null")).toEqual({
      url: "/openapi.json",
      withDefaultFonts: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      hideClientButton: true,
      showDeveloperTools: "never",
      telemetry: false,
    });
  });

  it("sends a CSP that allows only this origin and no framing, with nosniff", async () => {
    const response = await fetch(`${baseUrl}/docs`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const directives = new Map(
      csp.split(";").map((part) => {
        const [name = "", ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get("default-src")).toEqual(["'self'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("connect-src")).toEqual(["'self'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("serves the pinned package's standalone bundle byte for byte, cached for a year", async () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(manifest.version).toBe(PINNED_VERSION);
    const response = await fetch(`${baseUrl}/docs/scalar.js?v=${PINNED_VERSION}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const served = Buffer.from(await response.arrayBuffer());
    const packaged = readFileSync(join(PACKAGE_ROOT, "dist", "browser", "standalone.js"));
    expect(served.equals(packaged)).toBe(true);
    expect(response.headers.get("content-encoding")).toBe("gzip"); // fetch asked for it and unzipped it
    // One self-contained file: it loads no CDN, needs no eval (script-src 'self' holds).
    const text = served.toString("utf8");
    expect(text).not.toMatch(THIRD_PARTY);
    expect(text).not.toMatch(/\beval\(|new Function\(/);
  });

  it("sends the bundle as is to a client that does not take gzip", async () => {
    for (const acceptEncoding of ["identity", "gzip;q=0, br"]) {
      const response = await fetch(`${baseUrl}/docs/scalar.js`, {
        headers: { "accept-encoding": acceptEncoding },
      });
      expect(response.headers.get("content-encoding")).toBeNull();
      const packaged = readFileSync(join(PACKAGE_ROOT, "dist", "browser", "standalone.js"));
      expect(response.headers.get("content-length")).toBe(String(packaged.byteLength));
      expect(Buffer.from(await response.arrayBuffer()).equals(packaged)).toBe(true);
    }
  });
});
