import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  clientAddress,
  createTrustedProxies,
  isTrustedProxyEntry,
  requestClientAddress,
} from "./client-ip.js";

const defaults = createTrustedProxies(["127.0.0.1", "::1"]);
const trusted = createTrustedProxies(["127.0.0.1", "::1", "10.0.0.0/8"]);

/** A request as node hands it over: a peer address on the socket and raw headers. */
function requestFrom(peer: string | undefined, forwardedFor?: string | string[]): IncomingMessage {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: peer });
  const req = new IncomingMessage(socket);
  if (forwardedFor !== undefined) req.headers["x-forwarded-for"] = forwardedFor;
  return req;
}

describe("clientAddress", () => {
  it("uses the socket peer when the peer is not a trusted proxy, whatever the header says", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", trusted)).toBe("203.0.113.7");
    expect(clientAddress("2001:db8::1", null, trusted)).toBe("2001:db8::1");
  });

  it("takes the right-most untrusted X-Forwarded-For entry behind trusted proxies", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.1, 203.0.113.7, 10.0.0.2", trusted)).toBe("203.0.113.7");
    expect(clientAddress("::ffff:127.0.0.1", "203.0.113.7", trusted)).toBe("203.0.113.7");
    // The client wrote 1.1.1.1 itself; the proxy appended the address it really saw.
    expect(clientAddress("::1", "1.1.1.1, 203.0.113.7, 127.0.0.1", defaults)).toBe("203.0.113.7");
  });

  it("falls back to the left-most entry when every hop is trusted, and the peer without a header", () => {
    expect(clientAddress("127.0.0.1", "10.0.0.3, 10.0.0.2", trusted)).toBe("10.0.0.3");
    expect(clientAddress("127.0.0.1", "::1, 127.0.0.1", defaults)).toBe("::1");
    expect(clientAddress("::1", null, trusted)).toBe("::1");
    expect(clientAddress("::ffff:127.0.0.1", null, trusted)).toBe("127.0.0.1");
    expect(clientAddress("::ffff:127.0.0.1", "", trusted)).toBe("127.0.0.1");
  });

  it("matches IPv4-mapped peers against IPv4 entries and answers IPv4", () => {
    expect(clientAddress("::ffff:127.0.0.1", "::ffff:203.0.113.7", defaults)).toBe("203.0.113.7");
  });

  it("unmaps a hex-written IPv4-mapped address too, and leaves the other embedding forms IPv6", () => {
    expect(clientAddress("::ffff:127.0.0.1", "::ffff:cb00:7163", defaults)).toBe("203.0.113.99");
    expect(clientAddress("::ffff:cb00:7163", null, defaults)).toBe("203.0.113.99");
    expect(clientAddress("::ffff:7f00:1", "203.0.113.7", defaults)).toBe("203.0.113.7");
    expect(clientAddress("2002:cb00:7163::1", null, defaults)).toBe("2002:cb00:7163::1");
  });

  it("gives no address for a garbage entry or an unknown peer", () => {
    expect(clientAddress("127.0.0.1", "not-an-ip", trusted)).toBeUndefined();
    expect(clientAddress("127.0.0.1", "1.1.1.1, not-an-ip", trusted)).toBeUndefined();
    expect(clientAddress(undefined, "203.0.113.7", trusted)).toBeUndefined();
    expect(clientAddress("", null, trusted)).toBeUndefined();
  });

  it("trusts CIDR blocks, and nobody with an empty list", () => {
    const subnet = createTrustedProxies(["10.0.0.0/8", "fd00::/8"]);
    expect(clientAddress("10.1.2.3", "203.0.113.7, 10.9.9.9", subnet)).toBe("203.0.113.7");
    expect(clientAddress("fd00::5", "203.0.113.8", subnet)).toBe("203.0.113.8");
    expect(clientAddress("127.0.0.1", "203.0.113.7", createTrustedProxies([]))).toBe("127.0.0.1");
  });

  it("gives the same answer for a peer asked about again (verdicts are remembered)", () => {
    const many = createTrustedProxies(["10.0.0.0/8"]);
    for (let i = 0; i < 3_000; i++) many.has(`192.0.2.${i % 256}`);
    for (let round = 0; round < 2; round++) {
      expect(many.has("10.1.2.3")).toBe(true);
      expect(many.has("::ffff:10.1.2.3")).toBe(true);
      expect(many.has("192.0.2.1")).toBe(false);
    }
  });
});

describe("requestClientAddress", () => {
  it("reads the socket's peer and X-Forwarded-For of a node request", () => {
    expect(requestClientAddress(requestFrom("203.0.113.7", "198.51.100.1"), defaults)).toBe("203.0.113.7");
    expect(requestClientAddress(requestFrom("127.0.0.1"), defaults)).toBe("127.0.0.1");
    expect(requestClientAddress(requestFrom("::1", "1.1.1.1, 203.0.113.7"), defaults)).toBe("203.0.113.7");
    expect(requestClientAddress(requestFrom(undefined, "203.0.113.7"), defaults)).toBeUndefined();
  });

  it("reads a repeated X-Forwarded-For as one list", () => {
    expect(requestClientAddress(requestFrom("127.0.0.1", ["1.1.1.1", "203.0.113.7"]), defaults)).toBe(
      "203.0.113.7",
    );
  });
});

describe("isTrustedProxyEntry", () => {
  it("accepts addresses and CIDR blocks, and nothing else", () => {
    for (const entry of ["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8", "0.0.0.0/0"])
      expect(isTrustedProxyEntry(entry), entry).toBe(true);
    for (const entry of ["localhost", "10.0.0.0/33", "::/129", "10.0.0.0/8/1", "10.0.0.0/x", ""])
      expect(isTrustedProxyEntry(entry), entry).toBe(false);
  });
});
