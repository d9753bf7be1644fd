import { describe, expect, it } from "vitest";
import { raceDeadline } from "./deadline-race.js";

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("raceDeadline", () => {
  it("answers the work's result when it ends in time", async () => {
    expect(
      await raceDeadline(
        after(5, "done"),
        Date.now() + 1_000,
        () => "late",
        () => undefined,
      ),
    ).toBe("done");
  });

  it("answers at the deadline while the work goes on, and hands a later error to onLateError", async () => {
    const late: unknown[] = [];
    let fail: (error: Error) => void = () => undefined;
    const work = new Promise<string>((_, reject) => {
      fail = reject;
    });
    const started = Date.now();
    expect(
      await raceDeadline(
        work,
        started + 30,
        () => "timed out",
        (error) => late.push(error),
      ),
    ).toBe("timed out");
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    fail(new Error("after"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(late).toHaveLength(1);
  });

  it("passes on an error thrown in time", async () => {
    await expect(
      raceDeadline(
        Promise.reject(new Error("boom")),
        Date.now() + 1_000,
        () => "late",
        () => undefined,
      ),
    ).rejects.toThrow("boom");
  });
});
