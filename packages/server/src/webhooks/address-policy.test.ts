import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./address-policy.js";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "[::1]",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "[::127.0.0.1]",
    "::7f00:1",
    "::ffff:0:7f00:1",
    "[::ffff:0:7f00:1]",
    "::ffff:0:10.0.0.1",
    "2002:7f00:1::",
    "[2002:7f00:1::]",
    "2002:a9fe:a9fe::1",
    "2002:c0a8:101::",
    "64:ff9b::10.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::808:808",
    "ff02::1",
    "localhost",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "::ffff:0:8.8.8.8",
    "::8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "[2002:5db8:d822::]",
    "[2001:4860::8888]",
  ])("accepts %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
