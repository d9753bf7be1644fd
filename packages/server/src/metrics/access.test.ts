import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../env.js";
import { createMetricsAccess, isLoopback } from "./access.js";

/** A request as node:http would hand it over, from a peer at `remoteAddress`. */
function incoming(remoteAddress: string, headers: IncomingMessage["headers"] = {}) {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: remoteAddress });
  const req = new IncomingMessage(socket);
  req.headers = headers;
  return req;
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
    expect(check(incoming("127.0.0.1"))).toBe("allowed");
    expect(check(incoming("10.1.2.3"))).toBe("forbidden");
    expect(check(incoming("127.0.0.1", { "x-forwarded-for": "10.1.2.3" }))).toBe("forbidden");
    expect(check(incoming("127.0.0.1", { forwarded: "for=10.1.2.3" }))).toBe("forbidden");
  });

  it("with a token, allows exactly that bearer token from anywhere", () => {
    const check = createMetricsAccess("0123456789abcdef");
    expect(check(incoming("10.1.2.3", { authorization: "Bearer 0123456789abcdef" }))).toBe("allowed");
    expect(check(incoming("127.0.0.1"))).toBe("unauthorized");
    expect(check(incoming("127.0.0.1", { authorization: "Bearer 0123456789abcde" }))).toBe("unauthorized");
    expect(check(incoming("127.0.0.1", { authorization: "Basic 0123456789abcdef" }))).toBe("unauthorized");
  });

  it("takes METRICS_TOKEN of 16 characters or more, treats an empty one as unset, and never echoes a short one", () => {
    expect(parseEnv({ METRICS_TOKEN: "0123456789abcdef" }).METRICS_TOKEN).toBe("0123456789abcdef");
    expect(parseEnv({ METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).toThrow(EnvError);
    expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).not.toThrow(/short-secret/);
  });
});
