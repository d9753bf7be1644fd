import { describe, expect, it } from "vitest";
import { shareKey } from "./share-key.js";

describe("shareKey", () => {
  it("counts IPv6 clients by their /64, however the address is written", () => {
    expect(shareKey("2001:db8:0:1::7")).toBe("2001:db8:0:1::/64");
    expect(shareKey("2001:0db8:0000:0001:ffff:ffff:ffff:ffff")).toBe("2001:db8:0:1::/64");
    expect(shareKey("2001:DB8:0:1:a::")).toBe("2001:db8:0:1::/64");
    expect(shareKey("2001:db8:0:2::7")).not.toBe(shareKey("2001:db8:0:1::7"));
    expect(shareKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("counts IPv4 clients by address, and unknown ones together", () => {
    expect(shareKey("203.0.113.7")).toBe("203.0.113.7");
    expect(shareKey(undefined)).toBe("unknown");
    expect(shareKey("not an address")).toBe("unknown");
  });
});
