import { and, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { SessionMemo } from "../auth/session-memo.js";
import type { Db, Tx } from "../db/database.js";
import { keyEvents, sessions, wallets } from "../db/schema/index.js";
import { type EventChanges, sessionEndedChanges } from "../events/changes.js";
import { recordOperatorEvent } from "../operator/audit.js";
import type { OperatorActor } from "../schemas/operator.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { recordEventWithWebhook } from "../webhooks/key-event.js";

/** One suspension or its lifting, as the operator asked it. */
export interface SuspensionChange {
  wallet: string;
  /** Why: recorded in both trails (the wallet reads it); optional when lifting. */
  reason: string | null;
  actor: OperatorActor;
  now: Date;
}

/** What a (un)suspension did: `changed` false when the wallet already was so (nothing recorded). */
export type SuspensionOutcome = { found: false } | { found: true; changed: boolean };

/** A wallet's suspension by the operator (docs/operator.md#suspension). */
export interface WalletSuspensions {
  /**
   * Suspends the wallet: stored with its reason, its live sessions ended, `wallet.suspended` in the
   * operator trail and the wallet's (as `actor: "operator"`, never who) with its webhook, all in one
   * transaction that tells every instance's verifier to forget the wallet's keys once it commits.
   */
  suspend(change: SuspensionChange): Promise<SuspensionOutcome>;
  /** Lifts a suspension, recording `wallet.unsuspended` as `suspend` records its event. Keys are as they were. */
  unsuspend(change: SuspensionChange): Promise<SuspensionOutcome>;
  /** Whether the operator has suspended `wallet` now (a sign-in, a top-up, a key write ask this). */
  isSuspended(wallet: string): Promise<boolean>;
}

/** Options of {@link createWalletSuspensions}. */
export interface WalletSuspensionsOptions {
  db: Db;
  changes: KeyChanges;
  /** The embedded database's session memo (auth/session-memo.ts): ended sessions are forgotten in it. */
  memo?: SessionMemo | undefined;
}

/**
 * The wallets table's suspension columns behind the operator's suspend and unsuspend.
 * @example const outcome = await suspensions.suspend({ wallet, reason: "abuse", actor, now: new Date() });
 */
export function createWalletSuspensions({ db, changes, memo }: WalletSuspensionsOptions): WalletSuspensions {
  async function apply(change: SuspensionChange, suspend: boolean): Promise<SuspensionOutcome> {
    const ended: string[] = [];
    const outcome = await changes.transaction(db, async (tx, _keyChanged, walletChanged) => {
      const [updated] = await tx
        .update(wallets)
        .set(
          suspend
            ? { suspendedAt: change.now, suspendedReason: change.reason }
            : { suspendedAt: null, suspendedReason: null },
        )
        .where(
          and(
            eq(wallets.address, change.wallet),
            suspend ? isNull(wallets.suspendedAt) : isNotNull(wallets.suspendedAt),
          ),
        )
        .returning({ address: wallets.address });
      if (updated === undefined) {
        const [known] = await tx
          .select({ address: wallets.address })
          .from(wallets)
          .where(eq(wallets.address, change.wallet));
        return known === undefined ? { found: false as const } : { found: true as const, changed: false };
      }
      if (suspend) ended.push(...(await endSessions(tx, change.wallet, change.now)));
      await recordBoth(tx, change, suspend, ended.length);
      await walletChanged(change.wallet);
      return { found: true as const, changed: true };
    });
    for (const hash of ended) memo?.forget(hash);
    return outcome;
  }

  return {
    suspend: (change) => apply(change, true),
    unsuspend: (change) => apply(change, false),
    async isSuspended(wallet) {
      const [row] = await db
        .select({ address: wallets.address })
        .from(wallets)
        .where(and(eq(wallets.address, wallet), isNotNull(wallets.suspendedAt)));
      return row !== undefined;
    },
  };
}

/** Ends the wallet's live sessions (one `session.ended` each, as a sign-out); returns their token hashes. */
async function endSessions(tx: Tx, wallet: string, now: Date): Promise<string[]> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.wallet, wallet), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .returning({ tokenHash: sessions.tokenHash });
  if (ended.length > 0) {
    const event = { wallet, keyId: null, action: "session.ended" as const, at: now };
    await tx.insert(keyEvents).values(ended.map(() => ({ ...event, changes: sessionEndedChanges() })));
  }
  return ended.map((row) => row.tokenHash);
}

/** The wallet's event and webhook (`actor: "operator"` and the reason only) and the operator's event. */
async function recordBoth(tx: Tx, change: SuspensionChange, suspend: boolean, sessionsEnded: number) {
  const action = suspend ? "wallet.suspended" : "wallet.unsuspended";
  const changes: EventChanges = { actor: "operator", reason: change.reason };
  await recordEventWithWebhook(
    tx,
    { wallet: change.wallet, keyId: null, action, at: change.now, changes },
    {
      type: action,
      keyId: null,
      data: {
        wallet: change.wallet,
        suspended: suspend ? { at: change.now.toISOString(), reason: change.reason } : null,
        changes,
      },
    },
  );
  await recordOperatorEvent(tx, {
    actor: change.actor,
    action,
    at: change.now,
    wallet: change.wallet,
    reason: change.reason,
    changes: suspend ? { sessionsEnded } : {},
  });
}
