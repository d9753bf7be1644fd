import { afterEach, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./support/proxy.js";

// `pnpm start` polls /healthz until the proxy answers, and load balancers poll it for ever: a passing
// check is logged at debug, so the default log shows the requests people make (docs/configuration.md).

let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

function requestLines(lines: string[]) {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "request");
}

describe("health check logs", () => {
  it("leave a passing /healthz out of the info log, while other requests are logged", async () => {
    proxy = await startProxy({ LOG_LEVEL: "info", COINGECKO_STARTUP_CHECK: "off" });
    expect((await proxy.call("/healthz")).status).toBe(200);
    expect((await proxy.call("/api/meta")).status).toBe(200);
    expect(requestLines(proxy.logLines).map((entry) => entry.path)).toEqual(["/api/meta"]);
  });

  it("log a passing /healthz at debug", async () => {
    proxy = await startProxy({ LOG_LEVEL: "debug", COINGECKO_STARTUP_CHECK: "off" });
    expect((await proxy.call("/healthz")).status).toBe(200);
    expect(requestLines(proxy.logLines)).toEqual([
      expect.objectContaining({ level: 20, method: "GET", path: "/healthz", status: 200 }),
    ]);
  });
});
