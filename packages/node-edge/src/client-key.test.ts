import { describe, expect, it } from "vitest";
import { clientLimitKey } from "./client-key.js";

describe("clientLimitKey", () => {
  it("counts IPv6 clients by their /64, however the address is written", () => {
    expect(clientLimitKey("2001:db8:0:1::7")).toBe("2001:db8:0:1::/64");
    expect(clientLimitKey("2001:0DB8:0000:0001:ffff:0:0:1")).toBe("2001:db8:0:1::/64");
    expect(clientLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(clientLimitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientLimitKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("keeps IPv4 addresses whole and puts unknown ones together", () => {
    expect(clientLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientLimitKey(undefined)).toBe("unknown");
    expect(clientLimitKey("not an address")).toBe("unknown");
  });

  it("counts an IPv4-mapped address, dotted or hex, as its IPv4 address", () => {
    expect(clientLimitKey("::ffff:203.0.113.99")).toBe("203.0.113.99");
    expect(clientLimitKey("::ffff:cb00:7163")).toBe("203.0.113.99");
  });
});
