import { describe, expect, it } from "vitest";
import { useLoggedServer } from "./support/logged-server.js";

// Malformed superjson on /trpc (no sign-in needed) is a 400, never a 500 that
// quotes the library, and never an error-level log line.

/** `{"a":{"a":...["undefined"]...}}`, `depth` deep, as text (JSON.stringify would overflow first). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}["undefined"]${"}".repeat(depth)}`;

const PAYLOADS: Record<string, string> = Object.fromEntries(
  Object.entries({
    "an unknown class": { json: { key: "x" }, meta: { values: { key: [["class", "Foo"]] } } },
    "a __proto__ path": { json: { key: "x" }, meta: { values: { __proto__: ["Date"], key: ["undefined"] } } },
    "a prototype path": { json: { key: "x" }, meta: { values: { "constructor.prototype": ["Date"] } } },
    "a custom value": { json: { key: "x" }, meta: { values: { key: [["custom", "Nope"]] } } },
    "a symbol value": { json: { key: "x" }, meta: { values: { key: [["symbol", "Nope"]] } } },
    "an unknown annotation": { json: { key: "x" }, meta: { values: { key: ["what"] } } },
    "a referential equality loop": {
      json: { key: "x" },
      meta: { referentialEqualities: { key: [["key"]] } },
    },
  }).map(([name, payload]) => [name, JSON.stringify(payload)]),
);
PAYLOADS["meta.values 5,000 deep"] = `{"json":{"key":"x"},"meta":{"values":${nested(5_000)}}}`;

describe("malformed transformer payloads on /trpc", () => {
  const server = useLoggedServer();

  const post = async (path: string, body: string) => {
    const response = await fetch(server.baseUrl + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return { status: response.status, text: await response.text() };
  };

  for (const [name, payload] of Object.entries(PAYLOADS)) {
    it(`answers 400 without internals for ${name}, unbatched and batched`, async () => {
      for (const [path, body] of [
        ["/trpc/keys.verify", payload],
        ["/trpc/keys.verify?batch=1", `{"0":${payload}}`],
        ["/trpc/auth.nonce?batch=1", `{"0":${payload}}`],
      ] as const) {
        const { status, text } = await post(path, body);
        expect(status, `${path}: ${text.slice(0, 300)}`).toBe(400);
        const parsed = JSON.parse(text) as unknown;
        const errors = (Array.isArray(parsed) ? parsed : [parsed]) as {
          error: { json: { message: string; data: { code: string } } };
        }[];
        for (const entry of errors) {
          expect(["PARSE_ERROR", "BAD_REQUEST"]).toContain(entry.error.json.data.code);
          expect(entry.error.json.message).not.toMatch(
            /deserialize|class|stack|superjson|Maximum call|prototype|symbol|custom/i,
          );
        }
      }
      const errorLines = server.lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((entry) => entry.level >= 50);
      expect(errorLines).toEqual([]);
    });
  }
});
