import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { installProcessFaultHandlers, registerProcessFaultMetrics } from "./process-faults.js";

/** A logger that keeps what it is given, as JSON. */
function captured() {
  const lines: string[] = [];
  const write = (level: string) => (fields: object, message: string) =>
    lines.push(JSON.stringify({ level, ...fields, msg: message }));
  return { lines, logger: { error: write("error"), fatal: write("fatal") } };
}

async function rejectionsCounted(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric("process_unhandled_rejections_total")?.get();
  return metric?.values[0]?.value ?? 0;
}

/** Resolves once `check` holds, polling each turn of the event loop (unhandled rejections fire after microtasks). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("condition never held");
}

describe("process fault handlers", () => {
  // Vitest reports unhandled rejections and uncaught exceptions as failures through its own listener: set it aside while a
  // test leaves real promises rejected and unobserved, and put it back after.
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  function install(options: Omit<Parameters<typeof installProcessFaultHandlers>[0], "logger">) {
    const vitestRejection = process.listeners("unhandledRejection");
    const vitestException = process.listeners("uncaughtException");
    process.removeAllListeners("unhandledRejection");
    process.removeAllListeners("uncaughtException");
    const log = captured();
    const uninstall = installProcessFaultHandlers({ logger: log.logger, ...options });
    restore = () => {
      uninstall();
      for (const listener of vitestRejection) process.on("unhandledRejection", listener);
      for (const listener of vitestException) process.on("uncaughtException", listener);
      restore = undefined;
    };
    return log;
  }

  it("keeps serving after unhandled rejections, logs each distinct message once (redacted) and counts every one", async () => {
    const registry = new Registry();
    registerProcessFaultMetrics(registry);
    const before = await rejectionsCounted(registry);
    let exited = false;
    const log = install({ drain: async () => undefined, exit: () => (exited = true) });

    const failure = () =>
      new Error(
        'HTTP request failed. URL: https://user:hunter2@rpc.example/v3/sk_provider?apikey=q1 Request body: {"method":"eth_getCode","params":["0xpaymentpayload"]}',
      );
    void Promise.reject(failure());
    void Promise.reject(failure());
    void Promise.reject(new Error("another failure"));
    await until(async () => (await rejectionsCounted(registry)) - before === 3);

    expect(exited).toBe(false);
    expect(log.lines).toHaveLength(2);
    const text = log.lines.join("\n");
    expect(text).toContain("https://rpc.example");
    expect(text).not.toMatch(/hunter2|user|sk_provider|apikey|q1|eth_getCode|0xpaymentpayload/);
    expect(log.lines[0]).toContain('"level":"error"');
  });

  it("drains and exits 1 after an uncaught exception", async () => {
    const events: string[] = [];
    const log = install({
      drain: async () => {
        events.push("drain");
      },
      exit: (code) => events.push(`exit ${code}`),
    });
    // What node does with a throw nothing catches; a real one would end the test worker itself.
    process.emit("uncaughtException", new Error("boom at redis://:secretpw@cache.internal:6379/0"));
    await until(async () => events.length === 2);
    expect(events).toEqual(["drain", "exit 1"]);
    expect(log.lines.join("")).toContain("redis://cache.internal:6379");
    expect(log.lines.join("")).not.toContain("secretpw");
    process.exitCode = 0;
  });

  it("exits 1 after the drain time when the drain hangs", async () => {
    const events: string[] = [];
    install({
      drain: () => new Promise(() => {}),
      drainTimeoutMs: 50,
      exit: (code) => events.push(`exit ${code}`),
    });
    process.emit("uncaughtException", new Error("boom"));
    await until(async () => events.length === 1);
    expect(events).toEqual(["exit 1"]);
    process.exitCode = 0;
  });
});
