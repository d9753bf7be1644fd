/** One admitted request as its client saw it: the server admitted it at some moment in [sentAt, receivedAt]. */
export interface TimedAdmission {
  /** Client clock (performance.now(), ms) just before the request was written. */
  sentAt: number;
  /** Client clock when its answer had fully arrived. */
  receivedAt: number;
}

/** An interval that held more admissions than the guarantee allows. */
export interface Breach {
  from: number;
  to: number;
  /** Admissions certainly inside [from, to] (sent at or after `from`, answered at or before `to`). */
  admitted: number;
  /** limit + ceil(limit × (to − from) / W). */
  bound: number;
}

/** What {@link checkSlidingGuarantee} found. */
export interface GuaranteeCheck {
  /** The interval with the largest excess over its bound, when one exceeds it. */
  breach: Breach | undefined;
  /** Intervals [a, b] examined. */
  intervals: number;
  /** The largest count seen against its bound, over all intervals: e.g. 41 of 42 allowed. */
  tightest: { admitted: number; bound: number };
}

/**
 * The guarantee of docs/verifying-keys.md#sliding-windows seen from the clients: in any interval of
 * length t <= W, at most limit + ceil(limit × t / W) admitted. Sound whatever the latency: an
 * admission is counted in [a, b] only when its whole round trip lies inside (sent >= a, answered
 * <= b), so the count never exceeds what the server admitted in [a, b], and a breach here is a real
 * one. Every a is a send time and every b an answer time of an admitted request with b − a <= W;
 * `from` leaves out intervals starting before it (the window after a Redis restart).
 */
export function checkSlidingGuarantee(
  admitted: readonly TimedAdmission[],
  limit: number,
  windowMs: number,
  from = Number.NEGATIVE_INFINITY,
): GuaranteeCheck {
  const bySend = [...admitted].sort((x, y) => x.sentAt - y.sentAt);
  let breach: Breach | undefined;
  let intervals = 0;
  let tightest = { admitted: 0, bound: limit + 1 };
  for (let i = 0; i < bySend.length; i++) {
    const a = bySend[i]?.sentAt ?? 0;
    // Each distinct start once: the first of equal send times sees them all.
    if (a < from || (i > 0 && bySend[i - 1]?.sentAt === a)) continue;
    const answers: number[] = [];
    for (let j = i; j < bySend.length; j++) {
      const item = bySend[j];
      if (item === undefined || item.sentAt > a + windowMs) break;
      if (item.receivedAt <= a + windowMs) answers.push(item.receivedAt);
    }
    answers.sort((x, y) => x - y);
    for (const [k, b] of answers.entries()) {
      intervals += 1;
      const count = k + 1;
      const bound = limit + Math.ceil((limit * (b - a)) / windowMs);
      if (count - bound > tightest.admitted - tightest.bound) tightest = { admitted: count, bound };
      if (count > bound && (breach === undefined || count - bound > breach.admitted - breach.bound))
        breach = { from: a, to: b, admitted: count, bound };
    }
  }
  return { breach, intervals, tightest };
}
