import type { AddressInfo } from "node:net";
import { createServer } from "node:net";

/** The port of a listening node:http server (`server.address()`). */
export function portOf(address: AddressInfo | string | null): number {
  if (address === null || typeof address === "string") throw new Error("server is not listening on TCP");
  return address.port;
}

/** A port on 127.0.0.1 that nothing listens on now (for a server to be started there later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = portOf(server.address());
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
