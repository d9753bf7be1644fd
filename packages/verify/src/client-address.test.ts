import { describe, expect, it } from "vitest";
import { cleanAddress, clientAddress } from "./client-address.js";

describe("the client's address", () => {
  it("is the socket's peer unless trustProxy is on, whatever X-Forwarded-For says", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.9", false)).toBe("127.0.0.1");
    expect(clientAddress("::ffff:127.0.0.1", undefined, false)).toBe("::ffff:127.0.0.1");
  });

  it("with trustProxy is the last X-Forwarded-For entry, the one the proxy in front wrote", () => {
    expect(clientAddress("10.0.0.2", "203.0.113.9", true)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.9", true)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.2", " 2001:db8::7 ", true)).toBe("2001:db8::7");
    // No header: the peer; a last entry that is no address: none (never the proxy's own).
    expect(clientAddress("10.0.0.2", undefined, true)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "203.0.113.9, unknown", true)).toBeUndefined();
    expect(clientAddress("10.0.0.2", "203.0.113.9,", true)).toBeUndefined();
  });

  it("drops brackets, ports and IPv6 zones, and nothing else", () => {
    expect(cleanAddress("[2001:db8::1]:8443")).toBe("2001:db8::1");
    expect(cleanAddress("[::1]")).toBe("::1");
    expect(cleanAddress("203.0.113.9:51234")).toBe("203.0.113.9");
    expect(cleanAddress("fe80::1%eth0")).toBe("fe80::1");
    for (const junk of ["", "unknown", "_hidden", "10.0.0.256", "example.com", undefined, null]) {
      expect(cleanAddress(junk)).toBeUndefined();
    }
  });
});
