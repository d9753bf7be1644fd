import { H3, serve } from "h3";
import { keyport } from "../../packages/verify/src/h3.js";
import { portFromEnv } from "./shutdown.js";

// The backend of the verify-sdk scenario: an h3 app (srvx via `serve`) answering a constant JSON behind
// Keyport's verification, either through @keyport/verify/h3 (VERIFY_MODE=sdk) or through the bare
// `fetch` to POST /api-keys/verify that a backend writes without the package (VERIFY_MODE=fetch).
const DATA = { ok: true, items: [1, 2, 3] };
const KEYPORT_URL = process.env.KEYPORT_URL ?? "";
const MODE = process.env.VERIFY_MODE;
if (!KEYPORT_URL || (MODE !== "sdk" && MODE !== "fetch")) {
  throw new Error("KEYPORT_URL and VERIFY_MODE=sdk|fetch must be set");
}

const VERIFY_URL = `${KEYPORT_URL}/api-keys/verify`;
const BEARER = /^Bearer (.+)$/;

const app = new H3();
app.get("/healthz", () => ({ status: "ok" }));
if (MODE === "sdk") {
  app.use("/data", keyport({ baseUrl: KEYPORT_URL }));
} else {
  // What a backend writes by hand: read the bearer key, ask Keyport, refuse anything not VALID.
  app.use("/data", async (event) => {
    const key = BEARER.exec(event.req.headers.get("authorization") ?? "")?.[1];
    if (key === undefined) return new Response('{"code":"UNAUTHORIZED"}', { status: 401 });
    const response = await fetch(VERIFY_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key }),
    });
    const verification: unknown = await response.json();
    const valid =
      typeof verification === "object" && verification !== null && Reflect.get(verification, "valid");
    if (valid !== true) return new Response('{"code":"UNAUTHORIZED"}', { status: 401 });
    event.context.verification = verification;
    return undefined;
  });
}
app.get("/data", () => DATA);

const server = serve(app, {
  port: portFromEnv(),
  hostname: "127.0.0.1",
  silent: true,
  gracefulShutdown: false,
});
const stop = () => {
  server.close(true).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
