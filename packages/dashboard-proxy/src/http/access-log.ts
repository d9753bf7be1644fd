import type { DestinationStream } from "pino";

/** Writes one access line per answered request. */
export type AccessLog = (
  method: string,
  path: string,
  status: number,
  durationMs: number | undefined,
  aborted: boolean,
  requestId: string | undefined,
) => void;

// pino's numeric levels: the access line is info (30); "silent" and anything above info drop it.
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const INFO = 30;
const DEBUG = 20;

/** Polled by the launcher (`pnpm start`) and load balancers: a passing check is logged at debug. */
const HEALTH_PATH = "/healthz";

/**
 * The access log: the line pino writes for `logger.info({ method, path, status, reqId, durationMs }, msg)`
 * with `base: { service: "dashboard-proxy" }`, built as one string with no per-request object.
 * Through pino it was the largest share of a cached hit's CPU (its serializer walks an object per
 * line). Only fields we make ourselves are written (the path goes through JSON.stringify; query
 * strings never; the request id is `[A-Za-z0-9._-]` only, see `isRequestId`, so it is written as is),
 * so it needs no redaction. Lines go to `destination` (stdout's buffered writer, shared with pino's
 * loggers, or a test's capture). A passing `/healthz` is written at debug.
 * @example createAccessLog("info", destination)("GET", "/api/meta", 200, 1, false, "3b0c1f7e-...")
 */
export function createAccessLog(level: string, destination: DestinationStream): AccessLog {
  const threshold = LEVELS[level] ?? Number.POSITIVE_INFINITY;
  if (threshold > INFO) return () => {};
  return (method, path, status, durationMs, aborted, requestId) => {
    const lineLevel = path === HEALTH_PATH && status < 300 && !aborted ? DEBUG : INFO;
    if (lineLevel < threshold) return;
    // JSON.stringify drops an undefined field, as pino does.
    const id = requestId === undefined ? "" : `,"reqId":"${requestId}"`;
    const duration = durationMs === undefined ? "" : `,"durationMs":${durationMs}`;
    const msg = aborted ? '"request aborted by the client"' : '"request"';
    destination.write(
      `{"level":${lineLevel},"time":${Date.now()},"service":"dashboard-proxy","method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status}${id}${duration},"msg":${msg}}\n`,
    );
  };
}
