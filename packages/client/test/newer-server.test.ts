import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyportClient } from "../src/index.js";

// A newer Keyport than this client: answers only grow (docs/upgrading.md). `keys.verify` hands back a
// code the client's types do not name, with `valid: false`, as the refusal it is (never an error the
// caller could mistake for "Keyport unavailable"), and fields it does not know pass through unread.

const NEWER = {
  valid: false,
  code: "KEY_QUARANTINED",
  keyId: "key_0123456789abcdefghij",
  wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  expiresAt: null,
  ratelimit: null,
  ratelimits: [],
  permissions: [],
  credits: null,
  meta: null,
  plan: { id: "pro", name: "Pro" },
};

/** A tRPC endpoint on 127.0.0.1 that answers every `keys.verify` of a batch as a newer server would (superjson). */
async function startNewerKeyport(): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify([{ result: { data: { json: NEWER } } }]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/trpc`, paths, server };
}

describe("createKeyportClient against a newer Keyport", () => {
  let keyport: Awaited<ReturnType<typeof startNewerKeyport>>;
  beforeAll(async () => {
    keyport = await startNewerKeyport();
  });
  afterAll(async () => {
    keyport?.server.closeAllConnections();
    await new Promise((resolve) => keyport?.server.close(resolve));
  });

  it("resolves keys.verify with a code it does not know as a refusal, valid false, with the answer's fields", async () => {
    const client = createKeyportClient({ url: keyport.url });
    const answer = await client.keys.verify.mutate({ key: "kp_a" });
    expect(answer).toEqual(NEWER);
    expect(answer.valid).toBe(false);
    expect(keyport.paths).toEqual(["/trpc/keys.verify?batch=1"]);
  });
});
