/** Counts as docs/api.md's `Counts`, keyed by outcome field. */
export interface CountsBody {
  requests: number;
  valid: number;
  rateLimited: number;
  expired: number;
  revoked: number;
  insufficientPermissions: number;
  usageExceeded: number;
  ipNotAllowed: number;
  walletSuspended: number;
}

const FIELD: Record<string, keyof CountsBody | undefined> = {
  VALID: "valid",
  RATE_LIMITED: "rateLimited",
  EXPIRED: "expired",
  REVOKED: "revoked",
  INSUFFICIENT_PERMISSIONS: "insufficientPermissions",
  USAGE_EXCEEDED: "usageExceeded",
  IP_NOT_ALLOWED: "ipNotAllowed",
  WALLET_SUSPENDED: "walletSuspended",
};

const zero = (): CountsBody => ({
  requests: 0,
  valid: 0,
  rateLimited: 0,
  expired: 0,
  revoked: 0,
  insufficientPermissions: 0,
  usageExceeded: 0,
  ipNotAllowed: 0,
  walletSuspended: 0,
});

/** Tallies the verification answers a client received, per key and in total, as usage should report them. */
export class AnswerTally {
  readonly totals = zero();
  readonly byKey = new Map<string, CountsBody>();

  /** Counts one answer; NOT_FOUND (no key) is not counted, as the server does not count it. */
  add(answer: { code: string; keyId: string | null }): void {
    const field = FIELD[answer.code];
    if (field === undefined || answer.keyId === null) return;
    let key = this.byKey.get(answer.keyId);
    if (key === undefined) {
      key = zero();
      this.byKey.set(answer.keyId, key);
    }
    for (const counts of [key, this.totals]) {
      counts[field]++;
      counts.requests++;
    }
  }

  /** Per-key counts sorted by key id, comparable with a usage answer's `keys`. */
  keys(): Array<{ keyId: string } & CountsBody> {
    return [...this.byKey]
      .map(([keyId, counts]) => ({ keyId, ...counts }))
      .sort((a, b) => a.keyId.localeCompare(b.keyId));
  }
}

/** A usage answer's keys without names, sorted by key id: the shape `AnswerTally.keys()` returns. */
export function usageKeys(usage: { keys: Array<{ keyId: string; name: string } & CountsBody> }) {
  return usage.keys
    .map(({ name: _name, ...counts }) => counts)
    .sort((a, b) => a.keyId.localeCompare(b.keyId));
}
