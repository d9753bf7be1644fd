import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now. The proxy must know its own origin (`PUBLIC_ORIGIN`) and the
 * server the SIWE domain (`localhost:<port>`) before either listens, so port 0 cannot be used directly.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("no port was assigned"))));
    });
  });
}
