import { Agent, request } from "node:http";

/** How long a client waits after a 5xx, a cut or a refusal before its next request. */
const RETRY_PAUSE_MS = 100;

/** How one verification ended, as its client saw it. */
export type Outcome =
  | "VALID"
  | "USAGE_EXCEEDED"
  /** Any other 2xx answer, or a 4xx: never expected here. */
  | "other"
  /** A 5xx answer: the server may have spent the credit before it failed. */
  | "5xx"
  /** The connection broke after the request may have reached the server (reset, hang-up): in doubt. */
  | "cut"
  /** No answer within the client's bound: in doubt too. */
  | "timeout"
  /** The connection was refused: the request never reached a server, so it spent nothing. */
  | "refused";

/** Every outcome's count, and the first few unexpected answers in words. */
export interface SpendTally {
  counts: Record<Outcome, number>;
  /** Answers counted so far (VALID, USAGE_EXCEEDED, other, 5xx). */
  answered: number;
  unexpected: string[];
}

export function newSpendTally(): SpendTally {
  const counts = { VALID: 0, USAGE_EXCEEDED: 0, other: 0, "5xx": 0, cut: 0, timeout: 0, refused: 0 };
  return { counts, answered: 0, unexpected: [] };
}

/** The requests whose answer the faults took: the server may have spent their credit, the client cannot know. */
export function unanswered(tally: SpendTally): number {
  return tally.counts["5xx"] + tally.counts.cut + tally.counts.timeout;
}

/** One server instance the clients can send to, with a keep-alive agent of its own. */
export interface Target {
  baseUrl: string;
  agent: Agent;
  /** False once the test is about to kill it: clients then send to another one. */
  up: boolean;
}

export function newTarget(baseUrl: string): Target {
  return { baseUrl, agent: new Agent({ keepAlive: true }), up: true };
}

export interface SpendOptions {
  targets: Target[];
  key: string;
  clients: number;
  tally: SpendTally;
  /** Clients stop sending (their requests in flight still finish) once this returns true. */
  stop?: () => boolean;
  /** The client-side bound on one request. */
  timeoutMs?: number;
}

/**
 * Runs `clients` concurrent loops, client i on target i mod n (or the next one up when its own is
 * down), each verifying `key` at cost 1 until it is answered USAGE_EXCEEDED (or `stop()`), counting
 * every outcome. A 5xx, a cut or a timeout is counted and the client carries on.
 */
export async function spendUntilRefused(options: SpendOptions): Promise<void> {
  const { targets, tally } = options;
  const body = JSON.stringify({ key: options.key, cost: 1 });
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pickTarget = (client: number): Target | undefined => {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(client + i) % targets.length];
      if (target?.up) return target;
    }
    return undefined;
  };
  const client = async (index: number) => {
    while (!options.stop?.()) {
      const target = pickTarget(index);
      if (target === undefined) throw new Error("no server instance is up");
      const outcome = await verifyOnce(target, body, timeoutMs, ["VALID", "USAGE_EXCEEDED"] as const);
      tally.counts[outcome.kind] += 1;
      if (outcome.kind !== "cut" && outcome.kind !== "timeout" && outcome.kind !== "refused")
        tally.answered += 1;
      if (outcome.kind === "other" && tally.unexpected.length < 20) tally.unexpected.push(outcome.detail);
      if (outcome.kind === "USAGE_EXCEEDED" || outcome.kind === "other") return;
      // A server or Redis on its way back: a pause instead of a tight loop of failures (each of which
      // would widen the unanswered margin the assertions allow).
      if (outcome.kind !== "VALID") await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
}

/** How a verification over HTTP ended: one of the codes asked for, or how the exchange failed. */
export type Exchange<Code extends string> = Code | "other" | "5xx" | "cut" | "timeout" | "refused";

/**
 * One `POST /api-keys/verify` over the target's keep-alive agent, classified: a 200 whose `code` is
 * one of `codes` is that code; any other answer is `other` (a 5xx is `5xx`).
 */
export function verifyOnce<Code extends string>(
  target: Target,
  body: string,
  timeoutMs: number,
  codes: readonly Code[],
): Promise<{ kind: Exchange<Code>; detail: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (kind: Exchange<Code>, detail = "") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ kind, detail });
    };
    const req = request(
      `${target.baseUrl}/api-keys/verify`,
      {
        method: "POST",
        agent: target.agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("error", () => settle("cut"));
        res.on("aborted", () => settle("cut"));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status >= 500) return settle("5xx");
          const code = status === 200 ? codeOf(text) : undefined;
          const known = codes.find((one) => one === code);
          if (known !== undefined) return settle(known);
          settle("other", `${status} ${text.slice(0, 200)}`);
        });
      },
    );
    const timer = setTimeout(() => {
      settle("timeout");
      req.destroy();
    }, timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) =>
      settle(error.code === "ECONNREFUSED" ? "refused" : "cut"),
    );
    req.end(body);
  });
}

function codeOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const code: unknown =
      typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "code") : undefined;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
