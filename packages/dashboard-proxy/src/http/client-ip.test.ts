import { describe, expect, it } from "vitest";
import { clientAddress, createTrustedProxies } from "./client-ip.js";

const trusted = createTrustedProxies(["127.0.0.1", "::1", "10.0.0.0/8"]);

describe("clientAddress", () => {
  it("uses the socket peer when the peer is not a trusted proxy, whatever the header says", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", trusted)).toBe("203.0.113.7");
  });

  it("takes the right-most untrusted X-Forwarded-For entry behind trusted proxies", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.1, 203.0.113.7, 10.0.0.2", trusted)).toBe("203.0.113.7");
    expect(clientAddress("::ffff:127.0.0.1", "203.0.113.7", trusted)).toBe("203.0.113.7");
  });

  it("falls back to the left-most entry when every hop is trusted, and the peer without a header", () => {
    expect(clientAddress("127.0.0.1", "10.0.0.3, 10.0.0.2", trusted)).toBe("10.0.0.3");
    expect(clientAddress("::1", null, trusted)).toBe("::1");
    expect(clientAddress("::ffff:127.0.0.1", null, trusted)).toBe("127.0.0.1");
  });

  it("gives no address for a garbage entry or an unknown peer", () => {
    expect(clientAddress("127.0.0.1", "not-an-ip", trusted)).toBeUndefined();
    expect(clientAddress(undefined, "203.0.113.7", trusted)).toBeUndefined();
  });

  it("trusts nobody with an empty list", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.7", createTrustedProxies([]))).toBe("127.0.0.1");
  });
});
