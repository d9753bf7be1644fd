import { afterAll, beforeAll, expect, it } from "vitest";
import { serveApp } from "../../src/http/serve.js";
import { createApp, parseEnv } from "../../src/index.js";
import { type KeyportStandIn, startKeyportStandIn } from "../support/keyport-stand-in.js";

// A forward that waits long (a top-up settling: up to 70 s) must end at its own timeout with a 504,
// whatever the garbage collector did meanwhile. A timeout signal held only by AbortSignal.any() is held
// weakly and was collected mid-wait, so the forward never ended (src/upstream/keyport.ts).

const ORIGIN = "http://dashboard.test:3001";
const FORWARD_TIMEOUT_MS = 6_000;

let keyport: KeyportStandIn;
let server: ReturnType<typeof serveApp>;
let url: string;

beforeAll(async () => {
  keyport = await startKeyportStandIn();
  keyport.behave({ kind: "hang" });
  const app = createApp(
    parseEnv({
      KEYPORT_URL: keyport.url,
      PUBLIC_ORIGIN: ORIGIN,
      KEYPORT_TIMEOUT_MS: String(FORWARD_TIMEOUT_MS),
    }),
    { logDestination: { write: () => {} } },
  );
  server = serveApp(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
  await server.ready();
  url = (server.url ?? "").replace(/\/$/, "");
});
afterAll(async () => {
  await server.close(true);
  await keyport.close();
});

it("answers 504 at the forward's timeout while garbage is collected during the wait", async () => {
  // Young-generation collections while the forward waits, as a busy proxy has them.
  let made = 0;
  const churn = setInterval(() => {
    made += Array.from({ length: 200_000 }, (_, i) => ({ i })).length;
  }, 50);
  const started = Date.now();
  try {
    const answer = await Promise.race([
      fetch(`${url}/trpc/keys.list?input=%7B%7D`, { headers: { origin: ORIGIN } }).then((res) => res.status),
      new Promise<string>((resolve) => setTimeout(() => resolve("no answer"), FORWARD_TIMEOUT_MS * 3)),
    ]);
    expect(answer).toBe(504);
    expect(Date.now() - started).toBeLessThan(FORWARD_TIMEOUT_MS * 2);
    expect(made).toBeGreaterThan(0);
  } finally {
    clearInterval(churn);
  }
}, 60_000);
