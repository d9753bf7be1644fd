import { request as httpRequest } from "node:http";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

/** Names a key may not have, each with why. JSON.stringify writes a lone surrogate as a `\ud800` escape. */
const REFUSED: [what: string, name: string][] = [
  ["a right-to-left override (U+202E)", "invoice\u202Etxt.exe"],
  ["a left-to-right mark (U+200E)", "a\u200Eb"],
  ["a right-to-left mark (U+200F)", "a\u200Fb"],
  ["a left-to-right embedding (U+202A)", "a\u202Ab"],
  ["a pop directional formatting (U+202C)", "a\u202Cb"],
  ["a left-to-right isolate (U+2066)", "a\u2066b"],
  ["a pop directional isolate (U+2069)", "a\u2069b"],
  ["a zero-width space (U+200B)", "pro\u200Bd"],
  ["a zero-width non-joiner (U+200C)", "pro\u200Cd"],
  ["a zero-width joiner (U+200D)", "pro\u200Dd"],
  ["a word joiner (U+2060)", "pro\u2060d"],
  ["a zero-width no-break space inside (U+FEFF)", "pro\uFEFFd"],
  ["a C0 control (NUL)", "a\u0000b"],
  ["a C0 control (ESC)", "a\u001B[31mb"],
  ["a newline", "a\nb"],
  ["DEL", "a\u007Fb"],
  ["a C1 control (U+0085)", "a\u0085b"],
  ["a C1 control (U+009B)", "a\u009Bb"],
  ["a line separator (U+2028)", "a\u2028b"],
  ["a lone space", " "],
  ["only whitespace", " \t\u3000 "],
  ["an empty name", ""],
  ["a lone high surrogate", "a\uD800b"],
  ["a lone low surrogate", "a\uDC00"],
  ["the replacement character (U+FFFD)", "a\uFFFDb"],
  ["65 characters after trimming", ` ${"n".repeat(65)} `],
];

/** Names that are fine, and what is stored for them. */
const ACCEPTED: [name: string, stored: string][] = [
  ["production", "production"],
  ["  padded  ", "padded"],
  ["Ünïcødé 日本語 clé", "Ünïcødé 日本語 clé"],
  ["rocket 🚀 key", "rocket 🚀 key"],
  ["שלום", "שלום"],
  ["n".repeat(64), "n".repeat(64)],
];

function issueOnName(body: unknown): boolean {
  if (typeof body !== "object" || body === null || !("issues" in body) || !Array.isArray(body.issues))
    return false;
  return body.issues.some(
    (issue: unknown) =>
      typeof issue === "object" &&
      issue !== null &&
      "path" in issue &&
      JSON.stringify(issue.path) === JSON.stringify(["name"]),
  );
}

/** Posts raw bytes (not necessarily UTF-8) as a JSON body. */
function postBytes(baseUrl: string, path: string, token: string, bytes: Buffer) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${path}`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": bytes.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }),
        );
      },
    );
    req.on("error", reject);
    req.end(bytes);
  });
}

describeDatabases("key names", (target) => {
  let server: TestServer;
  let session: { token: string; wallet: string };

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
  });
  afterAll(() => server.close());

  const trpc = () =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${server.baseUrl}/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${session.token}` },
        }),
      ],
    });

  async function storedNames(): Promise<string[]> {
    const { body } = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}?limit=100`, {
      token: session.token,
    });
    const keys = (body as { keys: { name: string }[] }).keys;
    return keys.map((key) => key.name);
  }

  it.each(REFUSED)(
    "refuses %s over REST with 400 and an issue on `name`, storing nothing",
    async (_, name) => {
      const before = await storedNames();
      const { status, body } = await request(server.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name },
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: "BAD_REQUEST", message: "Input validation failed" });
      expect(issueOnName(body)).toBe(true);
      expect(await storedNames()).toEqual(before);
    },
  );

  it.each(REFUSED)("refuses %s over tRPC with BAD_REQUEST and an issue on `name`", async (_, name) => {
    const error = await trpc()
      .keys.create.mutate({ name })
      .then(
        () => undefined,
        (cause: unknown) => cause,
      );
    expect(error).toBeInstanceOf(TRPCClientError);
    const shape = (error as TRPCClientError<AppRouter>).shape;
    expect(shape?.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400 });
    expect(issueOnName(shape?.data)).toBe(true);
  });

  it("names the refused code point in the issue's message", async () => {
    const { body } = await request(server.baseUrl, "POST", "/api-keys", {
      token: session.token,
      body: { name: "invoice\u202Etxt.exe" },
    });
    expect(JSON.stringify(body)).toContain("U+202E");
  });

  it("refuses a surrogate sent as raw (CESU-8) bytes, which the body decoder turns into U+FFFD", async () => {
    const before = await storedNames();
    const bytes = Buffer.concat([
      Buffer.from('{"name":"a'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('b"}'),
    ]);
    const { status, body } = await postBytes(server.baseUrl, "/api-keys", session.token, bytes);
    expect(status).toBe(400);
    expect(issueOnName(body)).toBe(true);
    const batched = await postBytes(
      server.baseUrl,
      "/trpc/keys.create?batch=1",
      session.token,
      Buffer.concat([
        Buffer.from('{"0":{"json":{"name":"a'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('b"}}}'),
      ]),
    );
    expect(batched.status).toBe(400);
    expect(await storedNames()).toEqual(before);
  });

  it.each(ACCEPTED)("accepts %j on both surfaces and stores it trimmed", async (name, stored) => {
    const rest = await request(server.baseUrl, "POST", "/api-keys", { token: session.token, body: { name } });
    expect(rest.status).toBe(201);
    expect((rest.body as { apiKey: { name: string } }).apiKey.name).toBe(stored);
    const created = await trpc().keys.create.mutate({ name });
    expect(created.apiKey.name).toBe(stored);
  });
});
