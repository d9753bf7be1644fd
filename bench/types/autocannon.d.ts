// The subset of autocannon 8's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface Result {
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
    start: Date;
    finish: Date;
    latency: Histogram;
    requests: Histogram;
  }

  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface RequestSpec extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
  }

  interface Options extends RawRequest {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    timeout?: number;
    pipelining?: number;
    requests?: RequestSpec[];
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
  export type { Options, RawRequest, RequestSpec, Result };
}
