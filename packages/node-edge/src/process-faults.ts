import { Counter, type Registry } from "prom-client";
import { errorSummary } from "./log-redaction.js";

/** What the handlers log through: a pino logger, or anything with its two methods. */
export interface FaultLogger {
  error(fields: object, message: string): void;
  fatal(fields: object, message: string): void;
}

export interface ProcessFaultOptions {
  logger: FaultLogger;
  /** Stops accepting and lets in-flight requests finish (the app's graceful close). */
  drain: () => Promise<unknown>;
  /** How long `drain` may take before the process exits anyway (10 s by default). */
  drainTimeoutMs?: number;
  /** Ends the process (tests pass their own); `process.exit` by default. */
  exit?: (code: number) => void;
}

/** Distinct rejection messages remembered, so a flood of new ones cannot grow memory without bound. */
const MAX_REMEMBERED = 1_000;

/**
 * Counts unhandled rejections for the whole process: one counter, registered in each app's registry
 * by `registerProcessFaultMetrics` (a process has one set of handlers, however many apps it runs).
 */
const unhandledRejections = new Counter({
  name: "process_unhandled_rejections_total",
  help: "Promise rejections nothing handled; the process logs each distinct one once and keeps serving",
  registers: [],
});

/** Adds `process_unhandled_rejections_total` to an app's registry (served at GET /metrics). */
export function registerProcessFaultMetrics(registry: Registry): void {
  registry.registerMetric(unhandledRejections);
}

/**
 * Installs the process's last line of defence (docs/decisions.md, "Process faults"):
 * - `unhandledRejection`: a promise failed and nothing was waiting on it. Its work is abandoned but
 *   nothing it shares is half-changed, so the process keeps serving. Counted in
 *   `process_unhandled_rejections_total`; each distinct (redacted) message is logged once.
 * - `uncaughtException`: a throw unwound a callback midway, so shared state may be corrupt. Logged
 *   (fatal), then the server stops accepting, drains for up to `drainTimeoutMs` and the process
 *   exits 1, for the supervisor to start a clean one.
 * Returns a function that removes both handlers.
 * @example installProcessFaultHandlers({ logger, drain: () => app.close() });
 */
export function installProcessFaultHandlers(options: ProcessFaultOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const seen = new Set<string>();
  let exiting = false;

  const onRejection = (reason: unknown) => {
    unhandledRejections.inc();
    const err = errorSummary(reason);
    const distinct = `${err.name}: ${err.message}`;
    if (seen.has(distinct)) return;
    if (seen.size >= MAX_REMEMBERED) seen.clear();
    seen.add(distinct);
    options.logger.error(
      { err },
      "unhandled promise rejection (logged once per message, counted in process_unhandled_rejections_total); still serving",
    );
  };

  const onException = (error: unknown) => {
    options.logger.fatal({ err: errorSummary(error) }, "uncaught exception: draining, then exiting 1");
    if (exiting) return;
    exiting = true;
    // Should the event loop empty before `exit` runs, the process still ends with 1.
    process.exitCode = 1;
    const force = setTimeout(() => exit(1), options.drainTimeoutMs ?? 10_000);
    options.drain().then(
      () => {
        clearTimeout(force);
        exit(1);
      },
      () => {
        clearTimeout(force);
        exit(1);
      },
    );
  };

  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
