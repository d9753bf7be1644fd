import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SweepCounts, startExpirySweep } from "./expiry-sweep.js";

const NONE: SweepCounts = { nonces: 0, sessions: 0, events: 0 };

function recordingLogger() {
  const lines: { level: string; fields: unknown; msg: string }[] = [];
  return {
    lines,
    info: (fields: unknown, msg: string) => lines.push({ level: "info", fields, msg }),
    warn: (fields: unknown, msg: string) => lines.push({ level: "warn", fields, msg }),
  };
}

describe("the expiry sweep's schedule", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sweeps once per interval, starting one interval after start", async () => {
    const sweep = vi.fn(async () => NONE);
    const running = startExpirySweep({ sweep, intervalMs: 60_000, logger: recordingLogger() });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(sweep).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sweep).toHaveBeenCalledTimes(3);
    await running.stop();
  });

  it("never runs two sweeps at once: the next waits for the running one to end", async () => {
    let finish: (counts: SweepCounts) => void = () => undefined;
    const sweep = vi.fn(() => new Promise<SweepCounts>((resolve) => (finish = resolve)));
    const running = startExpirySweep({ sweep, intervalMs: 1_000, logger: recordingLogger() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    finish(NONE);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweep).toHaveBeenCalledTimes(2);
    finish(NONE);
    await running.stop();
  });

  it("stops: no timer is left, a running sweep is awaited, and none starts after", async () => {
    let finish: (counts: SweepCounts) => void = () => undefined;
    const sweep = vi.fn(() => new Promise<SweepCounts>((resolve) => (finish = resolve)));
    const running = startExpirySweep({ sweep, intervalMs: 1_000, logger: recordingLogger() });
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = running.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish(NONE);
    await stopping;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    await running.stop(); // idempotent
  });

  it("never keeps the process alive: its timer is unref'd", async () => {
    vi.useRealTimers();
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const running = startExpirySweep({
      sweep: async () => NONE,
      intervalMs: 60_000,
      logger: recordingLogger(),
    });
    const timer: unknown = setTimeoutSpy.mock.results[0]?.value;
    setTimeoutSpy.mockRestore();
    expect(timer).toMatchObject({ hasRef: expect.any(Function) });
    expect((timer as NodeJS.Timeout).hasRef()).toBe(false);
    await running.stop();
  });

  it("logs what it deleted at info, only when it deleted something", async () => {
    const logger = recordingLogger();
    const counts = [NONE, { nonces: 3, sessions: 1, events: 0 }];
    const running = startExpirySweep({
      sweep: async () => counts.shift() ?? NONE,
      intervalMs: 1_000,
      logger,
    });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(logger.lines).toEqual([
      {
        level: "info",
        fields: { nonces: 3, sessions: 1, events: 0 },
        msg: "expired rows deleted, expiry notices enqueued",
      },
    ]);
    await running.stop();
  });

  it("logs a failed sweep as a warning without its SQL, and tries again next time", async () => {
    const logger = recordingLogger();
    const driverError = Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
    const sweep = vi
      .fn<() => Promise<SweepCounts>>()
      .mockRejectedValueOnce(
        new Error('Failed query: delete from "sessions" where ...\nparams: 2026-01-01', {
          cause: driverError,
        }),
      )
      .mockResolvedValue(NONE);
    const running = startExpirySweep({ sweep, intervalMs: 1_000, logger });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sweep).toHaveBeenCalledTimes(2);
    expect(logger.lines).toEqual([
      {
        level: "warn",
        fields: { err: { name: "Error", code: "ECONNREFUSED", message: "connection refused" } },
        msg: "expired-row sweep failed; will retry",
      },
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain("Failed query");
    await running.stop();
  });
});
