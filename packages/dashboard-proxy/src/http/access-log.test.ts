import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createAccessLog } from "./access-log.js";

/** Captures lines, parsed, with `time` checked and then left out (it is the wall clock). */
function capture() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    write(line: string) {
      expect(line.endsWith("}\n")).toBe(true);
      const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
      expect(typeof time).toBe("number");
      lines.push(rest);
    },
  };
}

describe("access log", () => {
  it("writes the line pino writes for the same request, field for field", () => {
    const ours = capture();
    const theirs = capture();
    const log = createAccessLog("info", ours);
    const logger = pino({ level: "info", base: { service: "dashboard-proxy" } }, theirs);
    const odd = '/api/"quoted"\\back\u0001slash/ü';
    log("GET", odd, 200, 3, false, "checkout-7f3a.retry_2");
    logger.info(
      { method: "GET", path: odd, status: 200, reqId: "checkout-7f3a.retry_2", durationMs: 3 },
      "request",
    );
    log("POST", "/api/chat", 499, undefined, true, undefined);
    logger.info(
      { method: "POST", path: "/api/chat", status: 499, reqId: undefined, durationMs: undefined },
      "request aborted by the client",
    );
    expect(ours.lines).toEqual(theirs.lines);
    expect(ours.lines[0]).toEqual({
      level: 30,
      service: "dashboard-proxy",
      method: "GET",
      path: odd,
      status: 200,
      reqId: "checkout-7f3a.retry_2",
      durationMs: 3,
      msg: "request",
    });
  });

  it("writes nothing above info", () => {
    for (const level of ["warn", "error", "fatal", "silent"]) {
      const lines = capture();
      createAccessLog(level, lines)("GET", "/healthz", 200, 1, false, "id");
      expect(lines.lines).toEqual([]);
    }
  });
});

describe("access log of /healthz", () => {
  it("writes a passing check at debug only, and a failing one at info", () => {
    const atInfo = capture();
    createAccessLog("info", atInfo)("GET", "/healthz", 200, 1, false, undefined);
    createAccessLog("info", atInfo)("GET", "/healthz", 503, 1, false, undefined);
    expect(atInfo.lines.map((line) => [line.level, line.status])).toEqual([[30, 503]]);
    const atDebug = capture();
    createAccessLog("debug", atDebug)("GET", "/healthz", 200, 1, false, undefined);
    expect(atDebug.lines.map((line) => [line.level, line.status])).toEqual([[20, 200]]);
  });
});
