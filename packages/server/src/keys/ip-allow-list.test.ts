import { describe, expect, it } from "vitest";
import { parseIp } from "../schemas/ip-address.js";
import { normaliseIpBlock } from "../schemas/ip-block.js";
import { compileIpAllowList } from "./ip-allow-list.js";

describe("allowedIps entries", () => {
  it.each([
    ["10.1.2.3", "10.1.2.3/32"],
    ["10.1.2.3/8", "10.0.0.0/8"],
    ["192.168.7.200/30", "192.168.7.200/30"],
    ["192.168.7.203/30", "192.168.7.200/30"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["2001:DB8:0:0::1", "2001:db8::1/128"],
    ["2001:db8:ffff::/32", "2001:db8::/32"],
    ["2001:0db8:0000:0000:0001:0000:0000:0001", "2001:db8::1:0:0:1/128"],
    ["::", "::/128"],
    ["::/0", "::/0"],
    ["::ffff:10.1.2.3", "10.1.2.3/32"],
    ["::ffff:10.1.2.3/104", "10.0.0.0/8"],
    ["::ffff:a01:203", "10.1.2.3/32"],
    ["fe80::1:0:0:0/64", "fe80::/64"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0/128"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8/128"],
    ["1:0:0:2::3/128", "1:0:0:2::3/128"],
    ["1:0:0:2:0:0:3:4", "1::2:0:0:3:4/128"],
    ["::1.2.3.4", "::102:304/128"],
    ["255.255.255.255", "255.255.255.255/32"],
  ])("%s is stored as %s", (entry, stored) => {
    expect(normaliseIpBlock(entry)).toBe(stored);
  });

  it.each([
    "",
    "10.1.2",
    "10.1.2.3.4",
    "10.1.2.256",
    "010.1.2.3",
    "10.1.2.3/33",
    "10.1.2.3/08",
    "10.1.2.3/",
    "10.1.2.3/-1",
    " 10.1.2.3",
    "2001:db8::/129",
    "2001:db8:::1",
    "1:2:3:4:5:6:7:8:9",
    "1::2:3:4:5:6:7:8",
    "fe80::1%eth0",
    "[::1]",
    "10.1.2.3:80",
    "example.com",
    "12345::",
    "1:2:3:4:5:6:7:8::",
    ":1::",
    "1:",
    ":",
    "1::2::3",
    "1.2.3.4.",
    ".1.2.3.4",
    "1..2.3",
    "::1.2.3",
    "::1.2.3.4:5",
    "1:2:3:4:5:6:7:1.2.3.4",
    "g::1",
    "1.2.3.4/32/1",
  ])("%j is refused", (entry) => {
    expect(normaliseIpBlock(entry)).toBeNull();
  });
});

describe("an allow-list", () => {
  const list = compileIpAllowList(["10.0.0.0/8", "192.168.7.200/30", "2001:db8::/32", "203.0.113.9/32"]);

  it("takes the first and last address of a block and refuses the ones just outside", () => {
    expect(list.allows("10.0.0.0")).toBe(true);
    expect(list.allows("10.255.255.255")).toBe(true);
    expect(list.allows("9.255.255.255")).toBe(false);
    expect(list.allows("11.0.0.0")).toBe(false);
    expect(list.allows("192.168.7.200")).toBe(true);
    expect(list.allows("192.168.7.203")).toBe(true);
    expect(list.allows("192.168.7.199")).toBe(false);
    expect(list.allows("192.168.7.204")).toBe(false);
    expect(list.allows("2001:db8::")).toBe(true);
    expect(list.allows("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")).toBe(true);
    expect(list.allows("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff")).toBe(false);
    expect(list.allows("2001:db9::")).toBe(false);
    expect(list.allows("203.0.113.9")).toBe(true);
    expect(list.allows("203.0.113.10")).toBe(false);
  });

  it("matches an IPv4-mapped IPv6 address against its IPv4 block, in either notation", () => {
    expect(list.allows("::ffff:10.1.2.3")).toBe(true);
    expect(list.allows("::FFFF:0a01:0203")).toBe(true);
    expect(list.allows("::ffff:11.1.2.3")).toBe(false);
    // The same 32 bits outside the mapped range are another address.
    expect(list.allows("::10.1.2.3")).toBe(false);
  });

  it("refuses whatever is not an address", () => {
    expect(list.allows("10.1.2.3/8")).toBe(false);
    expect(list.allows("")).toBe(false);
    expect(list.allows("localhost")).toBe(false);
  });

  it("with ::/0 takes every address, IPv4 included; an empty list takes none", () => {
    expect(compileIpAllowList(["::/0"]).allows("8.8.8.8")).toBe(true);
    expect(compileIpAllowList(["0.0.0.0/0"]).allows("2001:db8::1")).toBe(false);
    expect(compileIpAllowList([]).allows("10.1.2.3")).toBe(false);
  });
});

describe("addresses", () => {
  it("reads IPv4 into the mapped range and IPv6 as written", () => {
    expect(parseIp("10.1.2.3")).toEqual({ family: 4, words: [0, 0, 0xffff, 0x0a010203] });
    expect(parseIp("2001:db8::1")).toEqual({ family: 6, words: [0x20010db8, 0, 0, 1] });
    expect(parseIp("1:2:3:4:5:6:7:8")).toEqual({ family: 6, words: [0x10002, 0x30004, 0x50006, 0x70008] });
    expect(parseIp("1:2:3:4:5:6:1.2.3.4")).toEqual({
      family: 6,
      words: [0x10002, 0x30004, 0x50006, 0x01020304],
    });
  });
});
