import type { CreditsInput, KeyMeta } from "../schemas/key-policy.js";
import type { NamedRateLimit } from "../schemas/rate-limits.js";
import { defaultLimitOf } from "../schemas/rate-limits.js";

/** A JSON value as `changes` stores it (times as ISO-8601 strings). */
export type ChangeValue = string | number | boolean | null | { [field: string]: ChangeValue } | ChangeValue[];

/** What an event changed: field names and their new public values. */
export type EventChanges = Record<string, ChangeValue>;

// The one place that decides what an event says. Each builder takes only public fields, so a
// secret, hash, token, SIWE message or signature has no parameter through which to reach the trail.

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** `key.created`: the fields the caller chose. */
export function keyCreatedChanges(key: {
  name: string;
  expiresAt: Date | null;
  rateLimits: NamedRateLimit[];
  permissions: string[];
  credits: CreditsInput | null;
  meta: KeyMeta | null;
  allowedIps: string[] | null;
}): EventChanges {
  return {
    name: key.name,
    expiresAt: iso(key.expiresAt),
    rateLimit: plainLimit(defaultLimitOf(key.rateLimits)),
    rateLimits: limitList(key.rateLimits),
    permissions: key.permissions,
    credits: key.credits,
    meta: jsonValue(key.meta),
    allowedIps: key.allowedIps,
  };
}

/** What a PATCH set: each field it carried, with its new value (`null` where it cleared one). */
export function keyUpdatedChanges(patch: {
  name?: string | undefined;
  expiresAt?: Date | null | undefined;
  rateLimits?: NamedRateLimit[] | undefined;
  permissions?: string[] | undefined;
  credits?: CreditsInput | null | undefined;
  meta?: KeyMeta | null | undefined;
  allowedIps?: string[] | null | undefined;
}): EventChanges {
  const changes: EventChanges = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.expiresAt !== undefined) changes.expiresAt = iso(patch.expiresAt);
  if (patch.rateLimits !== undefined) {
    changes.rateLimit = plainLimit(defaultLimitOf(patch.rateLimits));
    changes.rateLimits = limitList(patch.rateLimits);
  }
  if (patch.permissions !== undefined) changes.permissions = patch.permissions;
  if (patch.credits !== undefined) changes.credits = patch.credits;
  if (patch.meta !== undefined) changes.meta = jsonValue(patch.meta);
  if (patch.allowedIps !== undefined) changes.allowedIps = patch.allowedIps;
  return changes;
}

/** `meta` as a change value: it is already JSON (validated on the way in). */
function jsonValue(meta: KeyMeta | null): ChangeValue {
  return meta;
}

/**
 * `key.rolled`, recorded on the rolled (old) key: the new key's id, when the old key is or will be
 * revoked (now plus the grace period, or its expiry if sooner), and the grace period asked for.
 */
export function keyRolledChanges(roll: {
  newKeyId: string;
  revokedAt: Date;
  gracePeriodSeconds: number;
}): EventChanges {
  return {
    rolledTo: roll.newKeyId,
    revokedAt: roll.revokedAt.toISOString(),
    gracePeriodSeconds: roll.gracePeriodSeconds,
  };
}

/** `key.revoked`: when. */
export function keyRevokedChanges(revokedAt: Date): EventChanges {
  return { revokedAt: revokedAt.toISOString() };
}

/**
 * `key.leaked`: where the key was found (null for a self-report), who reported it, and when the key
 * was revoked (now, or earlier for a key already revoked). Never the token.
 */
export function keyLeakedChanges(leak: {
  url: string | null;
  source: string;
  revokedAt: Date;
}): EventChanges {
  return { url: leak.url, source: leak.source, revokedAt: leak.revokedAt.toISOString() };
}

/** `session.created` (a sign-in): when the session ends. Never its token, message or signature. */
export function sessionCreatedChanges(expiresAt: Date): EventChanges {
  return { expiresAt: expiresAt.toISOString() };
}

/** `session.ended` (a sign-out): nothing beyond the event's own time. */
export function sessionEndedChanges(): EventChanges {
  return {};
}

/** A single limit as a change value. */
function plainLimit(limit: { limit: number; windowSeconds: number } | null): ChangeValue {
  return limit === null ? null : { limit: limit.limit, windowSeconds: limit.windowSeconds };
}

/** A list of named limits as a change value. */
function limitList(list: readonly NamedRateLimit[]): ChangeValue {
  return list.map((l) => ({
    name: l.name,
    limit: l.limit,
    windowSeconds: l.windowSeconds,
    autoApply: l.autoApply,
  }));
}

/**
 * `limits.updated`: the wallet-wide limits now and before, as lists and (for clients that know one
 * limit) their `default` (null where there is none).
 */
export function limitsUpdatedChanges(change: {
  rateLimits: readonly NamedRateLimit[];
  previousRateLimits: readonly NamedRateLimit[];
}): EventChanges {
  return {
    rateLimit: plainLimit(defaultLimitOf(change.rateLimits)),
    previousRateLimit: plainLimit(defaultLimitOf(change.previousRateLimits)),
    rateLimits: limitList(change.rateLimits),
    previousRateLimits: limitList(change.previousRateLimits),
  };
}

/** `key.topped_up`: what was paid and credited, by whom, in which transaction (never the signature). */
export function keyToppedUpChanges(topUp: {
  amount: string;
  credits: number;
  payer: string;
  transaction: string;
}): EventChanges {
  return { amount: topUp.amount, credits: topUp.credits, payer: topUp.payer, transaction: topUp.transaction };
}
