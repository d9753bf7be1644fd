import { describe, expect, it } from "vitest";
import { createMetricsAccess, isLoopback, type MetricsRequest } from "./metrics-access.js";

/** A request from a peer at `peer` with `headers` (names in lower case). */
function request(peer: string | undefined, headers: Record<string, string> = {}): MetricsRequest {
  return { peer, header: (name) => headers[name] };
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

  it("with a token, allows exactly that bearer token from anywhere", () => {
    const check = createMetricsAccess("0123456789abcdef");
    expect(check(request("10.1.2.3", { authorization: "Bearer 0123456789abcdef" }))).toBe("allowed");
    expect(check(request("10.1.2.3", { authorization: "bearer  0123456789abcdef " }))).toBe("allowed");
    expect(check(request("127.0.0.1"))).toBe("unauthorized");
    expect(check(request("127.0.0.1", { authorization: "Bearer 0123456789abcde" }))).toBe("unauthorized");
    expect(check(request("127.0.0.1", { authorization: "Basic 0123456789abcdef" }))).toBe("unauthorized");
  });
});
