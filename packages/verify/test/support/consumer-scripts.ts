// The scripts of the projects outside the workspace, as a backend author would write them. Each prints
// one JSON line of what it saw.

/** The package alone: the verifier against the real server, a missing server, and the union's narrowing. */
export function verifierScript(baseUrl: string, key: string): string {
  return `import { createVerifier, type VerifyResult } from "@keyport/verify";

const keyport = createVerifier({ baseUrl: ${JSON.stringify(baseUrl)}, timeoutMs: 2000 });
const valid: VerifyResult = await keyport.verify(${JSON.stringify(key)});
const keyId: string | null = valid.valid ? valid.keyId : null;
const unknown = await keyport.verify("kp_unknown0123456789abcdefghijklmnop");
const warnings: string[] = [];
const down = createVerifier({ baseUrl: "http://127.0.0.1:9", logger: { warn: (line) => warnings.push(line) } });
const unavailable = await down.verify("kp_whatever");
console.log(JSON.stringify({
  code: valid.code,
  keyId,
  notFound: unknown.code === "NOT_FOUND" ? unknown.keyId : "?",
  unavailable: unavailable.code === "UNAVAILABLE" ? unavailable.reason : "?",
  warnings: warnings.length,
}));
`;
}

/**
 * h3 alone: docs/backend.md's opening example as written (its Keyport URL pointed at the test's server,
 * without the `serve(app, ...)` that would listen on a port), then requests through the app's own fetch.
 */
export function h3Script(baseUrl: string, key: string, docsExample: string): string {
  const example = docsExample.replace("http://localhost:3000", baseUrl).replace(/^serve\(app.*\);$/m, "");
  return `${example}
const ok = await app.fetch(new Request("http://backend/data", { headers: { authorization: "Bearer ${key}" } }));
const missing = await app.fetch(new Request("http://backend/data"));
const body = await ok.json();
console.log(JSON.stringify({ ok: ok.status, body: { keyId: body.key.keyId }, missing: missing.status, error: await missing.json() }));
`;
}

/** The first TypeScript block of a Markdown page. */
export function firstTypeScriptBlock(markdown: string): string {
  const block = /```ts\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error("no ts block");
  return block;
}

/** Hono alone: the middleware on /api/*, called through the app's own fetch. */
export function honoScript(baseUrl: string, key: string): string {
  return `import { Hono } from "hono";
import { keyport, type KeyportEnv } from "@keyport/verify/hono";

const app = new Hono<KeyportEnv>();
app.use("/api/*", keyport({ baseUrl: ${JSON.stringify(baseUrl)} }));
app.get("/api/data", (c) => {
  const result = c.get("keyport");
  return c.json({ keyId: result.valid ? result.keyId : null });
});

const ok = await app.fetch(new Request("http://backend/api/data", { headers: { "x-api-key": "${key}" } }));
const missing = await app.fetch(new Request("http://backend/api/data"));
console.log(JSON.stringify({ ok: ok.status, body: await ok.json(), missing: missing.status, error: await missing.json() }));
`;
}

/** Express alone: the middleware in front of a route on a real port. */
export function expressScript(baseUrl: string, key: string): string {
  return `import express from "express";
import type { AddressInfo } from "node:net";
import { keyport } from "@keyport/verify/express";

const app = express();
app.use(keyport({ baseUrl: ${JSON.stringify(baseUrl)} }));
app.get("/data", (req, res) => {
  res.json({ keyId: req.keyport?.valid ? req.keyport.keyId : null });
});

const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const url = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}/data\`;
const ok = await fetch(url, { headers: { authorization: "Bearer ${key}" } });
const missing = await fetch(url);
console.log(JSON.stringify({ ok: ok.status, body: await ok.json(), missing: missing.status, error: await missing.json() }));
server.close();
`;
}
