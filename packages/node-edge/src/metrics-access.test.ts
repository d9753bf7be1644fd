import { describe, expect, it } from "vitest";
import { createMetricsAccess, isLoopback, type MetricsRequest } from "./metrics-access.js";

/** A request from a peer at `peer` with `headers` (names in lower case; `Host: 127.0.0.1:3000` unless given). */
function request(peer: string | undefined, headers: Record<string, string> = {}): MetricsRequest {
  const all: Record<string, string> = { host: "127.0.0.1:3000", ...headers };
  return { peer, header: (name) => all[name] };
}

describe("metrics access", () => {
  it("treats 127.0.0.0/8 and ::1, also IPv4-mapped, as loopback, and nothing else", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) {
      expect(isLoopback(address)).toBe(true);
    }
    for (const address of [undefined, "10.0.0.1", "::ffff:10.0.0.1", "::2", "1.127.0.0", "fe80::1"]) {
      expect(isLoopback(address)).toBe(false);
    }
  });

  it("without a token, allows a loopback peer only when no proxy header is present", () => {
    const check = createMetricsAccess(undefined);
    expect(check(request("127.0.0.1"))).toBe("allowed");
    expect(check(request("::1"))).toBe("allowed");
    expect(check(request("10.1.2.3"))).toBe("forbidden");
    expect(check(request(undefined))).toBe("forbidden");
    expect(check(request("127.0.0.1", { "x-forwarded-for": "10.1.2.3" }))).toBe("forbidden");
    expect(check(request("127.0.0.1", { "x-forwarded-for": "" }))).toBe("forbidden");
    expect(check(request("127.0.0.1", { forwarded: "for=10.1.2.3" }))).toBe("forbidden");
  });

  it.each([
    "x-real-ip",
    "x-forwarded-host",
    "x-forwarded-proto",
    "x-client-ip",
    "true-client-ip",
    "cf-connecting-ip",
    "via",
  ])("without a token, refuses a loopback peer whose request carries %s", (name) => {
    expect(createMetricsAccess(undefined)(request("127.0.0.1", { [name]: "10.1.2.3" }))).toBe("forbidden");
  });

  it("without a token, allows only a loopback Host (any port), refusing a DNS-rebound name", () => {
    const check = createMetricsAccess(undefined);
    for (const host of ["localhost", "LOCALHOST:3000", "127.0.0.1", "127.1.2.3:80", "[::1]:3000", "[::1]"])
      expect(check(request("127.0.0.1", { host }))).toBe("allowed");
    for (const host of [
      "evil.example",
      "evil.example:3000",
      "localhost.evil.example",
      "127.0.0.1.nip.io",
      "10.0.0.1:3000",
      "[::2]",
      "",
      "localhost:x",
    ])
      expect(check(request("127.0.0.1", { host }))).toBe("forbidden");
    expect(check({ peer: "127.0.0.1", header: () => undefined })).toBe("forbidden");
  });

  it("with a token, lets the token decide whatever the forwarding headers and Host say", () => {
    const check = createMetricsAccess("0123456789abcdef");
    const headers = {
      authorization: "Bearer 0123456789abcdef",
      "x-real-ip": "10.1.2.3",
      host: "evil.example",
    };
    expect(check(request("127.0.0.1", headers))).toBe("allowed");
  });

  it("with a token, allows exactly that bearer token from anywhere", () => {
    const check = createMetricsAccess("0123456789abcdef");
    expect(check(request("10.1.2.3", { authorization: "Bearer 0123456789abcdef" }))).toBe("allowed");
    expect(check(request("10.1.2.3", { authorization: "bearer  0123456789abcdef " }))).toBe("allowed");
    expect(check(request("127.0.0.1"))).toBe("unauthorized");
    expect(check(request("127.0.0.1", { authorization: "Bearer 0123456789abcde" }))).toBe("unauthorized");
    expect(check(request("127.0.0.1", { authorization: "Basic 0123456789abcdef" }))).toBe("unauthorized");
  });
});
