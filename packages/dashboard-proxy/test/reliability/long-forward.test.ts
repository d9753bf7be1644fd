import { afterAll, beforeAll, expect, it } from "vitest";
import { serveApp } from "../../src/http/serve.js";
import { createApp, parseEnv } from "../../src/index.js";
import { FORWARD_TIMEOUT_MS as FORWARD_TIMEOUTS } from "../../src/trpc/allow-list.js";
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

it("tells a top-up that ran out of time that the payment may still be credited, and where to look", async () => {
  // The top-up's real budget is 70 s (node-edge top-up-budget.ts); this run shortens it, then puts it back.
  const budget = FORWARD_TIMEOUTS["keys.topUp"];
  Reflect.set(FORWARD_TIMEOUTS, "keys.topUp", 2_000);
  try {
    const response = await fetch(`${url}/trpc/keys.topUp`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(504);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe("GATEWAY_TIMEOUT");
    expect(body.message).toMatch(/may still be credited: look at the key's credits/);
  } finally {
    Reflect.set(FORWARD_TIMEOUTS, "keys.topUp", budget);
  }
}, 60_000);
