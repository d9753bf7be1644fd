import autocannon, { type RawRequest } from "autocannon";

/** One kind of request a contestant answers; `setupRequest` may vary it per request (tokens, bodies). */
export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: RawRequest) => RawRequest;
}

/** What one measurement found. Only 2xx responses count towards `rps`. */
export interface Measurement {
  rps: number;
  /** Latency percentiles in ms (autocannon's histogram has 1 ms resolution). */
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon against `spec` for `durationSeconds` at `connections`. */
export async function measureLoad(
  spec: LoadSpec,
  settings: { connections: number; durationSeconds: number },
): Promise<Measurement> {
  const headers = { ...spec.headers };
  if (spec.body !== undefined) headers["content-type"] ??= "application/json";
  const result = await autocannon({
    url: spec.url,
    connections: settings.connections,
    duration: settings.durationSeconds,
    timeout: 10,
    requests: [
      {
        method: spec.method ?? "GET",
        headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.setupRequest === undefined ? {} : { setupRequest: spec.setupRequest }),
      },
    ],
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    rps: seconds > 0 ? result["2xx"] / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
