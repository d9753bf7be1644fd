import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.js";

describe("parseEnv", () => {
  it("fills the documented defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3001,
      COINGECKO_PLAN: "demo",
      COINGECKO_BASE_URL: "https://api.coingecko.com/api/v3",
      COINGECKO_KEY_HEADER: "x-cg-demo-api-key",
      ALLOWED_ORIGINS: [],
      RATE_LIMIT_PER_MINUTE: 600,
      UPSTREAM_TIMEOUT_MS: 8_000,
      CHAT_HEADER_TIMEOUT_MS: 30_000,
      LOG_LEVEL: "info",
      TRUSTED_PROXIES: ["127.0.0.1", "::1"],
      KEYPORT_URL: "http://127.0.0.1:3000",
      KEYPORT_PUBLIC_URL: "http://127.0.0.1:3000",
      KEYPORT_TIMEOUT_MS: 10_000,
      PUBLIC_ORIGIN: "http://localhost:3001",
    });
    expect(env.DASHBOARD_DIR).toMatch(/packages[\\/]dashboard[\\/]dist$/);
    expect(env.AGENT_URL).toBeUndefined();
    expect(env.COINGECKO_API_KEY).toBeUndefined();
  });

  it("listens on every interface unless HOST names one", () => {
    expect(parseEnv({}).HOST).toBeUndefined();
    expect(parseEnv({ HOST: " " }).HOST).toBeUndefined();
    expect(parseEnv({ HOST: "127.0.0.1" }).HOST).toBe("127.0.0.1");
  });

  it("switches host and key header with COINGECKO_PLAN=pro", () => {
    const env = parseEnv({ COINGECKO_PLAN: "pro", COINGECKO_API_KEY: "k" });
    expect(env.COINGECKO_BASE_URL).toBe("https://pro-api.coingecko.com/api/v3");
    expect(env.COINGECKO_KEY_HEADER).toBe("x-cg-pro-api-key");
  });

  it("serves COINGECKO_PLAN=enterprise from the Pro host with the Pro header", () => {
    const env = parseEnv({ COINGECKO_PLAN: "enterprise", COINGECKO_API_KEY: "k" });
    expect(env.COINGECKO_PLAN).toBe("enterprise");
    expect(env.COINGECKO_BASE_URL).toBe("https://pro-api.coingecko.com/api/v3");
    expect(env.COINGECKO_KEY_HEADER).toBe("x-cg-pro-api-key");
  });

  it("runs the start-up check unless COINGECKO_STARTUP_CHECK=off", () => {
    expect(parseEnv({}).COINGECKO_STARTUP_CHECK).toBe("on");
    expect(parseEnv({ COINGECKO_STARTUP_CHECK: "off" }).COINGECKO_STARTUP_CHECK).toBe("off");
  });

  it("lets COINGECKO_BASE_URL override the plan's host, without a trailing slash", () => {
    expect(parseEnv({ COINGECKO_BASE_URL: "http://127.0.0.1:9/api/v3/" }).COINGECKO_BASE_URL).toBe(
      "http://127.0.0.1:9/api/v3",
    );
  });

  it("reads ALLOWED_ORIGINS as a list of origins and treats empty strings as unset", () => {
    const env = parseEnv({ ALLOWED_ORIGINS: "https://a.example, http://localhost:5173/", AGENT_URL: "" });
    expect(env.ALLOWED_ORIGINS).toEqual(["https://a.example", "http://localhost:5173"]);
    expect(env.AGENT_URL).toBeUndefined();
  });

  it("reads TRUSTED_PROXIES as addresses and CIDR blocks; empty trusts nobody", () => {
    expect(parseEnv({ TRUSTED_PROXIES: "10.0.0.0/8, fd00::/8,192.0.2.1" }).TRUSTED_PROXIES).toEqual([
      "10.0.0.0/8",
      "fd00::/8",
      "192.0.2.1",
    ]);
    expect(parseEnv({ TRUSTED_PROXIES: "," }).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv({ TRUSTED_PROXIES: "" }).TRUSTED_PROXIES).toEqual([]);
  });

  it("derives PUBLIC_ORIGIN from PORT unless set, and drops trailing slashes", () => {
    expect(parseEnv({ PORT: "8080" }).PUBLIC_ORIGIN).toBe("http://localhost:8080");
    expect(parseEnv({ PUBLIC_ORIGIN: "https://keys.example/" }).PUBLIC_ORIGIN).toBe("https://keys.example");
    expect(parseEnv({ KEYPORT_URL: "http://10.0.0.5:3000/" }).KEYPORT_URL).toBe("http://10.0.0.5:3000");
    expect(parseEnv({ DASHBOARD_DIR: "/srv/dashboard" }).DASHBOARD_DIR).toBe("/srv/dashboard");
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ COINGECKO_PLAN: "free" }, "COINGECKO_PLAN"],
    [{ COINGECKO_PLAN: "pro" }, "COINGECKO_API_KEY"],
    [{ COINGECKO_PLAN: "enterprise" }, "COINGECKO_API_KEY"],
    [{ COINGECKO_STARTUP_CHECK: "yes" }, "COINGECKO_STARTUP_CHECK"],
    [{ AGENT_URL: "ftp://agent" }, "AGENT_URL"],
    [{ ALLOWED_ORIGINS: "https://a.example/path" }, "ALLOWED_ORIGINS"],
    [{ RATE_LIMIT_PER_MINUTE: "0" }, "RATE_LIMIT_PER_MINUTE"],
    [{ UPSTREAM_TIMEOUT_MS: "1.5" }, "UPSTREAM_TIMEOUT_MS"],
    [{ TRUST_PROXY: "true" }, "TRUSTED_PROXIES"],
    [{ TRUSTED_PROXIES: "10.0.0.0/33" }, "TRUSTED_PROXIES"],
    [{ TRUSTED_PROXIES: "proxy.local" }, "TRUSTED_PROXIES"],
    [{ PUBLIC_ORIGIN: "https://keys.example/app" }, "PUBLIC_ORIGIN"],
    [{ KEYPORT_URL: "ftp://server" }, "KEYPORT_URL"],
    [{ KEYPORT_PUBLIC_URL: "keys.example.com" }, "KEYPORT_PUBLIC_URL"],
    [{ KEYPORT_TIMEOUT_MS: "50" }, "KEYPORT_TIMEOUT_MS"],
  ])("refuses %o, naming %s", (source, name) => {
    expect(() => parseEnv(source)).toThrow(EnvError);
    expect(() => parseEnv(source)).toThrow(name);
  });

  it("gives each client a sixth of the minute's upstream calls unless COINGECKO_CLIENT_CALLS_PER_MINUTE says", () => {
    expect(parseEnv({}).COINGECKO_CLIENT_CALLS_PER_MINUTE).toBe(5);
    expect(
      parseEnv({ COINGECKO_PLAN: "pro", COINGECKO_API_KEY: "k" }).COINGECKO_CLIENT_CALLS_PER_MINUTE,
    ).toBe(83);
    expect(parseEnv({ COINGECKO_CALLS_PER_MINUTE: "2" }).COINGECKO_CLIENT_CALLS_PER_MINUTE).toBe(1);
    expect(parseEnv({ COINGECKO_CLIENT_CALLS_PER_MINUTE: "12" }).COINGECKO_CLIENT_CALLS_PER_MINUTE).toBe(12);
    expect(() => parseEnv({ COINGECKO_CLIENT_CALLS_PER_MINUTE: "0" })).toThrow(
      "COINGECKO_CLIENT_CALLS_PER_MINUTE",
    );
  });

  it("never quotes a secret value in its error", () => {
    const secret = "CG-super-secret-value";
    expect(() => parseEnv({ COINGECKO_API_KEY: secret, PORT: "x" })).toThrow(/PORT/);
    try {
      parseEnv({ COINGECKO_API_KEY: secret, PORT: "x" });
    } catch (error) {
      expect(String(error)).not.toContain(secret);
    }
  });
});
