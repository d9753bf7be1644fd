import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { newKey } from "../../src/keys/secret.js";

/** The outcomes usage counts; NOT_FOUND is answered but never counted. */
export const COUNTED = ["VALID", "RATE_LIMITED", "EXPIRED", "REVOKED"] as const;
export type Counted = (typeof COUNTED)[number];
const USAGE_FIELD: Record<Counted, "valid" | "rateLimited" | "expired" | "revoked"> = {
  VALID: "valid",
  RATE_LIMITED: "rateLimited",
  EXPIRED: "expired",
  REVOKED: "revoked",
};

interface Key {
  id: string;
  key: string;
}

/** One wallet the traffic acts as, with keys in every state a verification can meet. */
export interface Tenant {
  wallet: string;
  token: string;
  plain: Key[];
  limited: Key[];
  expiring: Key[];
  revoked: Key[];
  /** Created during the traffic; revoked ones leave this list. */
  churn: Key[];
}

/** Everything the traffic saw, as the client saw it. */
export interface Tally {
  /** Verifications answered 200, by wallet and outcome (NOT_FOUND not included). */
  answered: Map<string, Record<Counted, number>>;
  /** `"verify 200"`, `"create 201"`... */
  statuses: Map<string, number>;
  /** Thrown requests and unexpected answers, in words. */
  errors: string[];
  /** Ids of keys whose creation was answered 201. */
  created: string[];
  /** Every secret and session token issued (for secret scans). */
  secrets: string[];
  /**
   * Verifications sent whose connection failed before the answer arrived (reset or closed, not
   * refused), by wallet: the server may have counted them, the client cannot know.
   */
  inDoubt: Map<string, number>;
  /** Requests whose answer was secret-shaped where no secret belongs. */
  leaks: string[];
  /** When each request started and what it got (for fault timelines). */
  timeline: Array<{ at: number; op: string; status: number; ms: number }>;
}

export function newTally(): Tally {
  return {
    answered: new Map(),
    statuses: new Map(),
    errors: [],
    created: [],
    inDoubt: new Map(),
    secrets: [],
    leaks: [],
    timeline: [],
  };
}

/** A secret key or a session token, wherever it may appear. */
export const SECRET_SHAPE = /\bkps?_[0-9A-Za-z]{32,38}\b/;

/** Signs in as a new wallet and gives it keys of every kind: plain, rate-limited, expiring soon, revoked. */
export async function createTenant(baseUrl: string, tally: Tally, expiringInMs: number): Promise<Tenant> {
  const { token, wallet } = await signIn(baseUrl);
  tally.secrets.push(token);
  const make = async (body: Record<string, unknown>) => {
    const res = await request(baseUrl, "POST", "/api-keys", { token, body });
    const created = res.body as { key: string; apiKey: { id: string } };
    if (res.status !== 201) throw new Error(`setup create answered ${res.status}`);
    tally.secrets.push(created.key);
    return { id: created.apiKey.id, key: created.key };
  };
  const tenant: Tenant = { wallet, token, plain: [], limited: [], expiring: [], revoked: [], churn: [] };
  for (let i = 0; i < 3; i++) tenant.plain.push(await make({ name: `plain ${i}` }));
  for (let i = 0; i < 2; i++)
    tenant.limited.push(await make({ name: `limited ${i}`, rateLimit: { limit: 3, windowSeconds: 1 } }));
  for (let i = 0; i < 2; i++) {
    const expiresAt = new Date(Date.now() + expiringInMs * (i + 1)).toISOString();
    tenant.expiring.push(await make({ name: `expiring ${i}`, expiresAt }));
  }
  const doomed = await make({ name: "revoked" });
  await request(baseUrl, "DELETE", `/api-keys/${doomed.id}`, { token });
  tenant.revoked.push(doomed);
  return tenant;
}

/** Options of {@link runTraffic}. */
export interface TrafficOptions {
  baseUrl: string;
  tenants: Tenant[];
  tally: Tally;
  workers: number;
  /** Keeps going while this returns true. */
  running: () => boolean;
  /** Statuses that count as answers rather than errors (default: only the route's success). */
  alsoAccept?: ReadonlySet<number>;
  /** Client-side bound on one request; a request that takes longer counts as hung. */
  requestTimeoutMs?: number;
  /** After the first thrown request, stop this worker (the server is going away on purpose). */
  stopOnThrow?: boolean;
}

const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/**
 * Runs `workers` concurrent loops of mixed traffic (about 70% verify, 10% each list, create,
 * revoke) until `running()` turns false, recording every answer in the tally.
 */
export async function runTraffic(options: TrafficOptions): Promise<void> {
  const { baseUrl, tenants, tally, alsoAccept = new Set<number>() } = options;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;

  const call = async (op: string, method: string, path: string, token: string | null, body?: unknown) => {
    const at = Date.now();
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    let text: string;
    try {
      response = await fetch(baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      // Which request, and after how long: a hang names its route in the failure.
      if (error instanceof Error)
        Object.assign(error, { request: `${op} ${method} after ${Date.now() - at} ms` });
      throw error;
    }
    const key = `${op} ${response.status}`;
    tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
    tally.timeline.push({ at, op, status: response.status, ms: Date.now() - at });
    if (op !== "create" && SECRET_SHAPE.test(text)) tally.leaks.push(`${key}: ${text.slice(0, 200)}`);
    return { status: response.status, text };
  };

  const verify = async (tenant: Tenant) => {
    const roll = Math.random();
    const source =
      roll < 0.3
        ? tenant.plain
        : roll < 0.5
          ? tenant.limited
          : roll < 0.6
            ? tenant.expiring
            : roll < 0.7
              ? tenant.revoked
              : roll < 0.85
                ? tenant.churn
                : undefined;
    const chosen = source === undefined ? undefined : pick(source);
    const key = chosen?.key ?? (roll < 0.93 ? newKey("kp").key : `kp_${"x".repeat(Math.floor(roll * 60))}`);
    const res = await call("verify", "POST", "/api-keys/verify", null, { key }).catch((error: unknown) => {
      const refused = error instanceof Error && String(error.cause).includes("ECONNREFUSED");
      if (!refused && chosen !== undefined)
        tally.inDoubt.set(tenant.wallet, (tally.inDoubt.get(tenant.wallet) ?? 0) + 1);
      throw error;
    });
    if (res.status !== 200) return res.status;
    const answer = JSON.parse(res.text) as { code: string; keyId: string | null; wallet: string | null };
    if (answer.code === "NOT_FOUND") {
      if (chosen !== undefined) tally.errors.push(`a stored key verified NOT_FOUND: ${chosen.id}`);
      return res.status;
    }
    const code = COUNTED.find((c) => c === answer.code);
    if (
      code === undefined ||
      chosen === undefined ||
      answer.keyId !== chosen.id ||
      answer.wallet !== tenant.wallet
    ) {
      tally.errors.push(`unexpected verification ${res.text.slice(0, 200)}`);
      return res.status;
    }
    const counts = tally.answered.get(tenant.wallet) ?? { VALID: 0, RATE_LIMITED: 0, EXPIRED: 0, REVOKED: 0 };
    counts[code] += 1;
    tally.answered.set(tenant.wallet, counts);
    return res.status;
  };

  const once = async (tenant: Tenant): Promise<[string, number, number]> => {
    const roll = Math.random();
    if (roll < 0.7) return ["verify", await verify(tenant), 200];
    if (roll < 0.8) {
      const res = await call("list", "GET", `/api-keys/${tenant.wallet}?limit=20`, tenant.token);
      return ["list", res.status, 200];
    }
    if (roll < 0.9) {
      const res = await call("create", "POST", "/api-keys", tenant.token, { name: "churn" });
      if (res.status === 201) {
        const created = JSON.parse(res.text) as { key: string; apiKey: { id: string } };
        tally.secrets.push(created.key);
        tally.created.push(created.apiKey.id);
        tenant.churn.push({ id: created.apiKey.id, key: created.key });
      }
      return ["create", res.status, 201];
    }
    const victim = tenant.churn.length > 20 ? tenant.churn.shift() : pick(tenant.churn);
    if (victim === undefined) return ["revoke", 200, 200];
    const res = await call("revoke", "DELETE", `/api-keys/${victim.id}`, tenant.token);
    if (res.status === 200) tenant.revoked.push(victim);
    return ["revoke", res.status, 200];
  };

  const worker = async () => {
    while (options.running()) {
      const tenant = pick(tenants);
      if (tenant === undefined) return;
      try {
        const [op, status, expected] = await once(tenant);
        if (status !== expected && !alsoAccept.has(status)) tally.errors.push(`${op} answered ${status}`);
      } catch (error) {
        tally.errors.push(
          `request threw: ${error instanceof Error ? `${String(Reflect.get(error, "request"))}: ${error.name} ${String(error.cause ?? error.message)}` : String(error)}`,
        );
        if (options.stopOnThrow) return;
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
}

/** Usage totals the server reports for `wallet` (all time it can see: the last 30 days). */
export async function usageTotals(baseUrl: string, tenant: Tenant): Promise<Record<Counted, number>> {
  const res = await request(
    baseUrl,
    "GET",
    `/api-keys/${tenant.wallet}/usage?granularity=hour&from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`,
    {
      token: tenant.token,
    },
  );
  if (res.status !== 200) throw new Error(`usage answered ${res.status}`);
  const totals = (res.body as { totals: Record<string, number> }).totals;
  return Object.fromEntries(COUNTED.map((code) => [code, totals[USAGE_FIELD[code]] ?? 0])) as Record<
    Counted,
    number
  >;
}

/** What the client counted for `wallet`, zeros included. */
export function answeredFor(tally: Tally, tenant: Tenant): Record<Counted, number> {
  return { VALID: 0, RATE_LIMITED: 0, EXPIRED: 0, REVOKED: 0, ...tally.answered.get(tenant.wallet) };
}
