import { Agent, request } from "node:http";

/** Time to first byte of a streamed POST, measured one request at a time. */
export interface TtfbSpec {
  url: string;
  body: string;
}

/** Sends one POST and resolves with ms until the first body byte (after reading the whole body). */
function timeFirstByte(spec: TtfbSpec, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      spec.url,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(spec.body) },
      },
      (res) => {
        let first: number | undefined;
        res.on("data", () => {
          first ??= performance.now() - started;
        });
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${spec.url} answered ${res.statusCode}`));
          else if (first === undefined) reject(new Error(`${spec.url} sent no body`));
          else resolve(first);
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(spec.body);
  });
}

/**
 * Alternates requests to each spec (a, b, a, b, ...) `count` times each on keep-alive connections,
 * so both sides see the same machine state; returns the TTFB samples in ms per spec.
 */
export async function measureTtfbAlternating(specs: readonly TtfbSpec[], count: number): Promise<number[][]> {
  const agents = specs.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const samples = specs.map((): number[] => []);
  try {
    for (let i = 0; i < count; i++) {
      for (const [index, spec] of specs.entries()) {
        const agent = agents[index];
        const bucket = samples[index];
        if (agent === undefined || bucket === undefined) continue;
        bucket.push(await timeFirstByte(spec, agent));
      }
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return samples;
}
