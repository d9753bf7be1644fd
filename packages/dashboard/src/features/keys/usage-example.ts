/**
 * A backend that accepts `secret`, in a few lines: the `@keyport/verify` middleware for h3 in front of
 * its routes, and a curl call to that backend with the key. The Keyport address is the default of
 * `pnpm start`; the comments say what to put there.
 */
export function usageExample(secret: string): string {
  return [
    "// Your backend (h3): each request must carry a valid Keyport key",
    'import { keyport } from "@keyport/verify/h3";',
    "",
    'app.use(keyport({ baseUrl: "http://localhost:3000" })); // your Keyport server',
    "",
    "# Call it with the key",
    `curl http://localhost:8080/ -H "Authorization: Bearer ${secret}"`,
  ].join("\n");
}
