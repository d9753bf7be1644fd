import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { createServer } from "node:http";

/** A signing key as a scanner (GitHub, GitLab) holds it: its identifier and its P-256 key pair. */
export interface ScannerKey {
  identifier: string;
  privateKey: KeyObject;
  publicPem: string;
}

/** Makes a P-256 key pair, identified (as GitHub does) by the hex SHA-256 of its public key. */
export function makeScannerKey(): ScannerKey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { identifier: createHash("sha256").update(publicPem).digest("hex"), privateKey, publicPem };
}

/** Base64 of the DER ECDSA-SHA-256 signature over `body`'s bytes, as the scanners send it. */
export function signReport(key: ScannerKey, body: string | Buffer): string {
  return sign("sha256", Buffer.from(body), { key: key.privateKey, dsaEncoding: "der" }).toString("base64");
}

/** The keys endpoint a scanner publishes, on 127.0.0.1: `{ public_keys: [{ key_identifier, key, is_current }] }`. */
export interface KeysEndpointStandIn {
  url: string;
  /** Publishes these keys from now on (the first is current). */
  publish(keys: readonly ScannerKey[]): void;
  /** `true`: every request answers 503 (the endpoint is down). */
  setDown(down: boolean): void;
  /** Requests received so far. */
  fetches(): number;
  close(): Promise<void>;
}

/** Starts a keys endpoint that publishes `keys`. */
export async function startKeysEndpoint(keys: readonly ScannerKey[]): Promise<KeysEndpointStandIn> {
  let published = keys;
  let down = false;
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches++;
    if (down) {
      res.writeHead(503, { "content-type": "text/plain" }).end("down");
      return;
    }
    const body = JSON.stringify({
      public_keys: published.map((key, index) => ({
        key_identifier: key.identifier,
        key: key.publicPem,
        is_current: index === 0,
      })),
    });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the keys stand-in has no port");
  return {
    url: `http://127.0.0.1:${address.port}/meta/public_keys/secret_scanning`,
    publish: (next) => {
      published = next;
    },
    setDown: (value) => {
      down = value;
    },
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
