/**
 * A backend that accepts the new key, as docs/backend.md opens: an h3 app behind the `@keyport/verify`
 * middleware. `serverUrl` is the Keyport server as the proxy's `/api/meta` names it
 * (`KEYPORT_PUBLIC_URL`); the app listens on 8080, away from Keyport's own ports.
 * @example usageExampleCode("http://localhost:3000")
 */
export function usageExampleCode(serverUrl: string): string {
  return [
    'import { H3, serve } from "h3";',
    'import { keyport } from "@keyport/verify/h3";',
    "",
    `const app = new H3().use(keyport({ baseUrl: ${JSON.stringify(serverUrl)} }));`,
    'app.get("/data", (event) => ({ key: event.context.keyport }));',
    "serve(app, { port: 8080 });",
  ].join("\n");
}

/** The shell line that installs h3 and `@keyport/verify` from the tarball `pnpm pack:public` writes. */
export function usageExampleInstall(): string {
  return "npm install h3 /path/to/keyport/packed/keyport-verify-*.tgz";
}

/** The shell line that calls the example backend with `secret`. */
export function usageExampleCall(secret: string): string {
  return `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/data`;
}
