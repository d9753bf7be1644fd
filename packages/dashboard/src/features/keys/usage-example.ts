/**
 * A backend that accepts `secret`, as docs/backend.md opens: an h3 app behind the `@keyport/verify`
 * middleware, then a curl call to it with the key. `http://localhost:3000` is the Keyport server of
 * `pnpm start`; the app listens on 8080 so the two do not collide.
 */
export function usageExample(secret: string): string {
  return [
    'import { H3, serve } from "h3";',
    'import { keyport } from "@keyport/verify/h3";',
    "",
    'const app = new H3().use(keyport({ baseUrl: "http://localhost:3000" }));',
    'app.get("/data", (event) => ({ key: event.context.keyport }));',
    "serve(app, { port: 8080 });",
    "",
    "# Then, with your new key:",
    `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/data`,
  ].join("\n");
}
