import type { AddressInfo } from "node:net";

/** The port of a listening node:http server (`server.address()`). */
export function portOf(address: AddressInfo | string | null): number {
  if (address === null || typeof address === "string") throw new Error("server is not listening on TCP");
  return address.port;
}
