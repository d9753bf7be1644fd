/**
 * A backend that accepts `secret`, in a few lines: the `@keyport/verify` middleware for h3 in front of
 * its routes, and a curl call to that backend with the key. The addresses are `pnpm start`'s Keyport
 * server and a backend's usual port; the dialog says what replaces them.
 */
export function usageExample(secret: string): string {
  return [
    "// Your backend (h3)",
    'import { keyport } from "@keyport/verify/h3";',
    'app.use(keyport({ baseUrl: "http://localhost:3000" }));',
    "",
    "# Call it with the key",
    `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/`,
  ].join("\n");
}
