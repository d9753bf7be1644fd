import { sendBytes } from "@keyport/test-support/raw-tcp";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// An early 413, tRPC refusals that echo nothing, HEAD on every GET route.

const MARKER = "zz-echo-marker-7f3a";

interface TrpcError {
  error: { json: { message: string; data: { code: string; httpStatus: number; path?: string | null } } };
}

function trpcErrors(text: string): TrpcError["error"]["json"][] {
  const parsed = JSON.parse(text) as TrpcError | TrpcError[];
  return (Array.isArray(parsed) ? parsed : [parsed]).map((entry) => entry.error.json);
}

/** The payload of a `Transfer-Encoding: chunked` body. */
function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const line = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

describeDatabases("the HTTP surface", (target) => {
  let server: TestServer;
  let port: number;
  let session: { token: string; wallet: string };

  beforeAll(async () => {
    server = await startTestServer(target);
    port = Number(new URL(server.baseUrl).port);
    session = await signIn(server.baseUrl);
  });
  afterAll(() => server.close());

  // The request declares 10 MB and sends none of it: only an answer before the body proves the 413 early.
  const tooLarge = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    "Content-Length: 10000000\r\n\r\n";

  it.each(["/api-keys", "/api-keys/verify", "/auth/verify", "/no/such/route"])(
    "answers a declared body over 64 KiB on %s with 413 before reading it, and closes",
    async (path) => {
      const answer = await sendBytes(port, tooLarge(path));
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe("close");
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({
        code: "PAYLOAD_TOO_LARGE",
        message: "The body must be at most 65536 bytes",
      });
    },
  );

  it.each(["/trpc/auth.nonce", "/trpc/keys.verify", "/trpc/keys.verify,auth.nonce?batch=1"])(
    "answers a declared body over 64 KiB on %s with tRPC's 413 before reading it, and closes",
    async (path) => {
      const answer = await sendBytes(port, tooLarge(path));
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe("close");
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      const errors = trpcErrors(
        answer.headers["transfer-encoding"] === "chunked" ? dechunk(answer.body) : answer.body,
      );
      expect(errors.length).toBe(path.includes(",") ? 2 : 1);
      for (const error of errors) {
        expect(error.message).toBe("The body must be at most 65536 bytes");
        expect(error.data.code).toBe("PAYLOAD_TOO_LARGE");
      }
    },
  );

  it("answers an unknown procedure with a fixed 404, never the path it was asked for", async () => {
    for (const [method, path] of [
      ["GET", `/trpc/${MARKER}`],
      ["POST", `/trpc/${MARKER}`],
      ["GET", `/trpc/${MARKER}?batch=1`],
      ["GET", `/trpc/nested.${MARKER}.deep`],
    ] as const) {
      const response = await fetch(server.baseUrl + path, {
        method,
        headers: method === "POST" ? { "content-type": "application/json" } : {},
        body: method === "POST" ? "{}" : undefined,
      });
      const text = await response.text();
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(text).not.toContain(MARKER);
      for (const error of trpcErrors(text)) {
        expect(error.message).toBe("No such procedure");
        expect(error.data.code).toBe("NOT_FOUND");
        expect(error.data.path ?? undefined).toBeUndefined();
      }
    }
  });

  it("answers an unknown procedure inside a batch the same way, beside the known one", async () => {
    const response = await fetch(`${server.baseUrl}/trpc/auth.session,${MARKER}?batch=1`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const text = await response.text();
    expect(text).not.toContain(MARKER);
    const [known, unknown] = JSON.parse(text) as [{ result?: unknown }, TrpcError];
    expect(known.result).toBeDefined();
    expect(unknown.error.json.message).toBe("No such procedure");
  });

  it("answers a body that is not JSON on /trpc with a JSON 415 that does not echo the content type", async () => {
    const response = await fetch(`${server.baseUrl}/trpc/auth.nonce`, {
      method: "POST",
      headers: { "content-type": `text/${MARKER}<script>` },
      body: "x",
    });
    const text = await response.text();
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(text).not.toContain(MARKER);
    const [error] = trpcErrors(text);
    expect(error?.data.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    // The same words as REST's 415.
    const rest = await fetch(`${server.baseUrl}/auth/nonce`, {
      method: "POST",
      headers: { "content-type": `text/${MARKER}` },
      body: "x",
    });
    expect(rest.status).toBe(415);
    expect(await rest.json()).toEqual({ code: "UNSUPPORTED_MEDIA_TYPE", message: error?.message });
  });

  it("answers the wrong method for a procedure with a fixed 405", async () => {
    const response = await fetch(`${server.baseUrl}/trpc/auth.session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(405);
    const [error] = trpcErrors(await response.text());
    expect(error?.message).toBe("Queries take GET and mutations take POST");
  });

  it("answers HEAD on every GET route like GET, without the body", async () => {
    const auth = { authorization: `Bearer ${session.token}` };
    const routes: [string, Record<string, string>][] = [
      ["/healthz", {}],
      ["/openapi.json", {}],
      ["/docs", {}],
      ["/docs/scalar.js", {}],
      ["/metrics", {}],
      ["/auth/session", auth],
      [`/api-keys/${session.wallet}`, auth],
      [`/api-keys/${session.wallet}/usage`, auth],
      [`/api-keys/${session.wallet}`, {}], // a refusal too: 401 both ways
    ];
    for (const [path, routeHeaders] of routes) {
      // The same representation both ways (/docs/scalar.js is gzipped for a client that asks).
      const headers = { ...routeHeaders, "accept-encoding": "identity" };
      const get = await fetch(server.baseUrl + path, { headers });
      const getBody = await get.arrayBuffer();
      const head = await sendBytes(
        port,
        `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("")}\r\n`,
      );
      expect(head.status, path).toBe(get.status);
      expect(head.headers["content-type"], path).toBe(get.headers.get("content-type") ?? undefined);
      if (get.headers.get("content-length") !== null) {
        expect(head.headers["content-length"], path).toBe(String(getBody.byteLength));
      }
      expect(head.body, path).toBe("");
    }
  });

  it("still refuses HEAD where there is no GET", async () => {
    const answer = await sendBytes(
      port,
      "HEAD /auth/nonce HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toBe("");
  });
});
