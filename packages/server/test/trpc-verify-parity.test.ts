import { REQUEST_ID_HEADER } from "@keyport/errors";
import { sendRaw } from "@keyport/test-support/raw-http";
import { signIn } from "@keyport/test-support/siwe";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { propertyRuns } from "./support/tier.js";
import { answerOf, startReference } from "./support/trpc-parity.js";

// The server answers keys.verify over tRPC on a fast path (docs/decisions.md, "tRPC verify fast
// path"); tRPC's own handler, over the same router and services on another port, is the reference.
// Every generated request must get the same status, the same body byte for byte and the same headers.
// `pnpm test` runs 20 generated requests per database, `pnpm test:slow` 200 (test/support/tier.ts); the
// answer while PostgreSQL is unreachable is in trpc-verify-parity-outage.test.ts (slow tier).

/** A JSON value nested `depth` arrays deep. */
function nested(depth: number): unknown {
  let value: unknown = "x";
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

interface Keys {
  valid: string[];
  revoked: string;
}

/** The input of one call: superjson-wrapped good and bad inputs, and bodies a plain client would send. */
function inputArb(keys: Keys) {
  const key = fc.oneof(
    fc.constantFrom(...keys.valid, keys.revoked),
    fc.constant(newKey("kp").key),
    fc.string({ maxLength: 20 }),
    fc.string({ minLength: 257, maxLength: 300 }),
  );
  return fc.oneof(
    key.map((k) => ({ json: { key: k } })),
    fc.record({ key, cost: fc.integer({ min: -3, max: 1_200 }) }).map((json) => ({ json })),
    fc
      .record({
        key,
        ip: fc.constantFrom(
          "10.1.2.3",
          "11.0.0.1",
          "::ffff:10.9.9.9",
          "2001:db8::1",
          "10.0.0.256",
          "10.0.0.0/8",
          "",
        ),
      })
      .map((json) => ({ json })),
    fc
      .record({
        key,
        permissions: fc.array(fc.oneof(fc.constant("docs:read"), fc.string()), { maxLength: 3 }),
      })
      .map((json) => ({ json })),
    fc.constant({ json: { key: 42 } }),
    fc.constant({ json: {} }),
    fc.constant({ json: null }),
    fc.constant(null),
    key.map((k) => ({ key: k })),
    key.map((k) => ({ json: { key: k }, meta: { values: { key: ["undefined"] } } })),
    key.map((k) => ({ json: { key: k }, meta: { values: { key: ["class", "Nope"] } } })),
    key.map((k) => ({ json: { key: k, extra: nested(70) } })),
  );
}

interface Call {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string | undefined;
}

function callArb(keys: Keys): fc.Arbitrary<Call> {
  const input = inputArb(keys);
  const json = "application/json";
  const batchOf = (paths: string[], inputs: unknown[], query = "?batch=1"): Call => ({
    method: "POST",
    path: `/trpc/${paths.join(",")}${query}`,
    contentType: json,
    body: JSON.stringify(Object.fromEntries(inputs.map((value, index) => [index, value]))),
  });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: input.map((value) => ({
        method: "POST",
        path: "/trpc/keys.verify",
        contentType: json,
        body: JSON.stringify(value),
      })),
    },
    {
      weight: 4,
      arbitrary: fc.array(input, { minLength: 1, maxLength: 10 }).map((inputs) =>
        batchOf(
          inputs.map(() => "keys.verify"),
          inputs,
        ),
      ),
    },
    // A batch with a missing input, more than 10 calls, another procedure, or an odd query.
    fc
      .array(input, { minLength: 2, maxLength: 4 })
      .map((inputs) => batchOf(["keys.verify", "keys.verify", "keys.verify"], inputs.slice(1))),
    fc.array(input, { minLength: 11, maxLength: 12 }).map((inputs) =>
      batchOf(
        inputs.map(() => "keys.verify"),
        inputs,
      ),
    ),
    fc
      .tuple(input, fc.constantFrom("auth.session", "keys.list", "keys.nope", "usage.get"))
      .map(([value, other]) => batchOf(["keys.verify", other], [value, value])),
    fc
      .tuple(input, fc.constantFrom("?batch=1&x=1", "?batch=0", "?batch=true", "?"))
      .map(([value, query]) => batchOf(["keys.verify"], [value], query)),
    fc
      .constantFrom(
        "{",
        "",
        "null",
        "[]",
        "1",
        '"key"',
        '{"json":{"key":"a"},"__proto__":{}}',
        '{"0":{"json":{"__proto__":{"key":"a"}}}}',
      )
      .map((body) => ({ method: "POST", path: "/trpc/keys.verify", contentType: json, body })),
    fc.constantFrom("{", "[]", "null", '{"0":1}').map((body) => ({
      method: "POST",
      path: "/trpc/keys.verify,keys.verify?batch=1",
      contentType: json,
      body,
    })),
    fc
      .tuple(
        input,
        fc.constantFrom(
          undefined,
          "text/plain",
          "application/json; charset=utf-8",
          "APPLICATION/JSON",
          "application/jsonl",
        ),
      )
      .map(([value, contentType]) => ({
        method: "POST",
        path: "/trpc/keys.verify",
        contentType,
        body: JSON.stringify(value),
      })),
    fc.tuple(input, fc.constantFrom("GET", "PUT", "DELETE", "PATCH")).map(([value, method]) => ({
      method,
      path: `/trpc/keys.verify?input=${encodeURIComponent(JSON.stringify(value))}`,
      contentType: undefined,
      body: undefined,
    })),
  );
}

describeDatabases("tRPC keys.verify fast path", (target) => {
  let server: TestServer;
  let reference: { baseUrl: string; close(): Promise<void> };
  const keys: Keys = { valid: [], revoked: "" };

  beforeAll(async () => {
    server = await startTestServer(target);
    reference = await startReference(server);
    const { token } = await signIn(server.baseUrl);
    const plain = await createKeyOver(server.baseUrl, token, { name: "plain" });
    const expiring = await createKeyOver(server.baseUrl, token, {
      name: "expiring",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const policy = await createKeyOver(server.baseUrl, token, {
      name: "policy",
      permissions: ["docs:read", "docs:write"],
      meta: { plan: "pro", seats: 3 },
    });
    const allowList = await createKeyOver(server.baseUrl, token, {
      name: "allow-list",
      allowedIps: ["10.0.0.0/8", "2001:db8::/32"],
    });
    const revoked = await createKeyOver(server.baseUrl, token, { name: "revoked" });
    const gone = await sendRaw(server.baseUrl, {
      method: "DELETE",
      path: `/api-keys/${revoked.apiKey.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(200);
    keys.valid.push(plain.key, expiring.key, policy.key, allowList.key);
    keys.revoked = revoked.key;
  });
  afterAll(async () => {
    await reference.close();
    await server.close();
  });

  it("answers every generated keys.verify request exactly as tRPC's own handler does", async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(callArb(keys), async (call) => {
        const headers: Record<string, string> = { [REQUEST_ID_HEADER]: `parity-${++id}` };
        if (call.contentType !== undefined) headers["content-type"] = call.contentType;
        const raw = { method: call.method, path: call.path, headers, body: call.body };
        const fast = answerOf(await sendRaw(server.baseUrl, raw));
        const expected = answerOf(await sendRaw(reference.baseUrl, raw));
        expect(fast).toEqual(expected);
      }),
      { numRuns: propertyRuns({ fast: 20, slow: 200 }) },
    );
    // A bound for a loaded 2-core machine (the slow tier's 200 runs: about 15 s alone), not an expectation.
  }, 150_000);

  it("answers the bench's call (a VALID key) with tRPC's wire format", async () => {
    const body = JSON.stringify({ json: { key: keys.valid[0] } });
    const raw = {
      method: "POST",
      path: "/trpc/keys.verify",
      headers: { "content-type": "application/json" },
      body,
    };
    const fast = await sendRaw(server.baseUrl, raw);
    expect(fast.status).toBe(200);
    expect(fast.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(fast.text)).toMatchObject({
      result: { data: { json: { valid: true, code: "VALID" } } },
    });
  });
});
