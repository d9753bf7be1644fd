import { describe, expect, it } from "vitest";
import { embeddedIpv4, ipv6Groups, unmappedIpv4 } from "./embedded-ipv4.js";

describe("embeddedIpv4", () => {
  it.each([
    ["::ffff:127.0.0.1", "mapped", "127.0.0.1"],
    ["::ffff:7f00:1", "mapped", "127.0.0.1"],
    ["::FFFF:CB00:7163", "mapped", "203.0.113.99"],
    ["0:0:0:0:0:ffff:0808:0808", "mapped", "8.8.8.8"],
    ["::ffff:0:7f00:1", "translated", "127.0.0.1"],
    ["::ffff:0:8.8.8.8", "translated", "8.8.8.8"],
    ["::127.0.0.1", "compatible", "127.0.0.1"],
    ["::7f00:1", "compatible", "127.0.0.1"],
    ["::1", "compatible", "0.0.0.1"],
    ["::", "compatible", "0.0.0.0"],
    ["64:ff9b::10.0.0.1", "nat64", "10.0.0.1"],
    ["0064:FF9B:0000::0808:0808", "nat64", "8.8.8.8"],
    ["2002:7f00:1::", "6to4", "127.0.0.1"],
    ["2002:0808:0808:1::5", "6to4", "8.8.8.8"],
  ])("reads %s as %s %s", (address, form, ipv4) => {
    expect(embeddedIpv4(address)).toEqual({ form, ipv4 });
  });

  it.each([
    "127.0.0.1",
    "2001:db8::1",
    "2606:4700:4700::1111",
    "64:ff9b:1::a00:1",
    "::ffff:1:7f00:1",
    "1::ffff:7f00:1",
    "fe80::1%eth0",
    "[::1]",
    "not an address",
  ])("finds no IPv4 in %s", (address) => {
    expect(embeddedIpv4(address)).toBeUndefined();
  });
});

describe("unmappedIpv4", () => {
  it("answers an IPv4-mapped address as its IPv4 address, written dotted or in hex", () => {
    expect(unmappedIpv4("::ffff:203.0.113.99")).toBe("203.0.113.99");
    expect(unmappedIpv4("::ffff:cb00:7163")).toBe("203.0.113.99");
    expect(unmappedIpv4("::FFFF:CB00:7163")).toBe("203.0.113.99");
  });

  it("leaves every other address as it was: the other embedding forms are IPv6 hosts of their own", () => {
    for (const address of [
      "203.0.113.99",
      "::1",
      "::cb00:7163",
      "::ffff:0:cb00:7163",
      "2002:cb00:7163::",
      "2001:db8::1",
    ]) {
      expect(unmappedIpv4(address)).toBe(address);
    }
  });
});

describe("ipv6Groups", () => {
  it("reads every text form into eight groups", () => {
    expect(ipv6Groups("2001:DB8::1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(ipv6Groups("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups("1.2.3.4")).toBeUndefined();
  });
});
