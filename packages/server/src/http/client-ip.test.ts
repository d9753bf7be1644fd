import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { clientIp, createTrustedProxies, isTrustedProxyEntry } from "./client-ip.js";

const defaults = createTrustedProxies(["127.0.0.1", "::1"]);

/** A request as node hands it over: a peer address on the socket and raw headers. */
function requestFrom(peer: string | undefined, forwardedFor?: string): IncomingMessage {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: peer });
  const req = new IncomingMessage(socket);
  if (forwardedFor !== undefined) req.headers["x-forwarded-for"] = forwardedFor;
  return req;
}

describe("clientIp", () => {
  it("is the socket's peer when the peer is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(clientIp(requestFrom("203.0.113.7", "198.51.100.1"), defaults)).toBe("203.0.113.7");
    expect(clientIp(requestFrom("2001:db8::1"), defaults)).toBe("2001:db8::1");
  });

  it("is the peer when a trusted proxy sends no X-Forwarded-For (a local caller)", () => {
    expect(clientIp(requestFrom("127.0.0.1"), defaults)).toBe("127.0.0.1");
    expect(clientIp(requestFrom("::ffff:127.0.0.1", ""), defaults)).toBe("127.0.0.1");
  });

  it("takes the right-most untrusted hop behind a trusted proxy, so a client cannot pick its own", () => {
    expect(clientIp(requestFrom("127.0.0.1", "203.0.113.7"), defaults)).toBe("203.0.113.7");
    // The client wrote 1.1.1.1 itself; the proxy appended the address it really saw.
    expect(clientIp(requestFrom("::1", "1.1.1.1, 203.0.113.7"), defaults)).toBe("203.0.113.7");
    expect(clientIp(requestFrom("::1", "1.1.1.1, 203.0.113.7, 127.0.0.1"), defaults)).toBe("203.0.113.7");
  });

  it("matches IPv4-mapped peers against IPv4 entries and answers IPv4", () => {
    expect(clientIp(requestFrom("::ffff:127.0.0.1", "::ffff:203.0.113.7"), defaults)).toBe("203.0.113.7");
  });

  it("is the left-most hop when every hop is a trusted proxy", () => {
    expect(clientIp(requestFrom("127.0.0.1", "::1, 127.0.0.1"), defaults)).toBe("::1");
  });

  it("is unknown when the hop it lands on is not an address, or the socket has closed", () => {
    expect(clientIp(requestFrom("127.0.0.1", "1.1.1.1, not-an-ip"), defaults)).toBeUndefined();
    expect(clientIp(requestFrom(undefined, "203.0.113.7"), defaults)).toBeUndefined();
  });

  it("trusts CIDR blocks, and nobody when the list is empty", () => {
    const subnet = createTrustedProxies(["10.0.0.0/8", "fd00::/8"]);
    expect(clientIp(requestFrom("10.1.2.3", "203.0.113.7, 10.9.9.9"), subnet)).toBe("203.0.113.7");
    expect(clientIp(requestFrom("fd00::5", "203.0.113.8"), subnet)).toBe("203.0.113.8");
    expect(clientIp(requestFrom("127.0.0.1", "203.0.113.7"), createTrustedProxies([]))).toBe("127.0.0.1");
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
