/**
 * A backend that accepts `secret`, as docs/backend.md opens: an h3 app behind the `@keyport/verify`
 * middleware, then a curl call to it with the key. `serverUrl` is the Keyport server as the proxy's
 * `/api/meta` names it (`KEYPORT_PUBLIC_URL`); the app listens on 8080, away from Keyport's own ports.
 * @example usageExample("kp_...", "http://localhost:3000")
 */
export function usageExample(secret: string, serverUrl: string): string {
  return [
    'import { H3, serve } from "h3";',
    'import { keyport } from "@keyport/verify/h3";',
    "",
    `const app = new H3().use(keyport({ baseUrl: ${JSON.stringify(serverUrl)} }));`,
    'app.get("/data", (event) => ({ key: event.context.keyport }));',
    "serve(app, { port: 8080 });",
    "",
    "# Then, with your new key:",
    `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/data`,
  ].join("\n");
}
