import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import type { KeyCache } from "./cache.js";

/** The NOTIFY channel; its payload is a key id, `wallet:` + a wallet or `plans`, never a secret. */
export const INVALIDATION_CHANNEL = "keyport_key_invalidated";

/** The database handles the bus needs, shaped like the foundation's raw driver. */
export type InvalidationDriver =
  | { kind: "pglite"; client: Pick<PGlite, "listen" | "query"> }
  | { kind: "postgres"; client: Pick<Sql, "listen" | "notify"> };

/** The payload prefix of a wallet-wide change (its limit); key ids start `key_`, so the two never meet. */
export const WALLET_PAYLOAD_PREFIX = "wallet:";

/** The payload of a plan change: every cached key's plan may be stale (docs/plans.md). */
export const PLANS_PAYLOAD = "plans";

/**
 * A key changed (`key`), a wallet's limit or plan changed so all its keys' records are stale (`wallet`),
 * or a plan changed or notifications may have been missed and everything is suspect (`all`).
 */
export type Invalidation =
  | { kind: "key"; keyId: string }
  | { kind: "wallet"; wallet: string }
  | { kind: "all" };

export interface InvalidationBus {
  /** Tells every instance, this one included, to forget `keyId`. */
  publish(keyId: string): Promise<void>;
  /** Calls `listener` for each invalidation; returns the unsubscribe function. */
  subscribe(listener: (event: Invalidation) => void): () => void;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * The statement that publishes an invalidation from inside the transaction that revokes or
 * rolls a key: PostgreSQL delivers it only if that transaction commits, and only after.
 * @example await tx.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${keyId})`)
 */
export const NOTIFY_SQL = "SELECT pg_notify($1, $2)";

/**
 * Listens for key invalidations over PostgreSQL LISTEN/NOTIFY, so revokes reach every instance
 * sharing the database without another service. postgres.js keeps the LISTEN on a dedicated
 * connection and re-listens after a reconnect; notifications sent while it was down are lost,
 * so each (re)listen emits `{ kind: "all" }`. With PGlite (one process) nothing can be missed.
 */
export async function createInvalidationBus(
  driver: InvalidationDriver,
  channel: string = INVALIDATION_CHANNEL,
): Promise<InvalidationBus> {
  const listeners = new Set<(event: Invalidation) => void>();
  const emit = (event: Invalidation): void => {
    for (const listener of listeners) listener(event);
  };
  const onPayload = (payload: string): void => {
    if (payload === PLANS_PAYLOAD) emit({ kind: "all" });
    else if (payload.startsWith(WALLET_PAYLOAD_PREFIX)) {
      const wallet = payload.slice(WALLET_PAYLOAD_PREFIX.length);
      if (wallet.length > 0) emit({ kind: "wallet", wallet });
    } else if (payload.length > 0) emit({ kind: "key", keyId: payload });
  };

  let stop: () => Promise<void>;
  let publish: (keyId: string) => Promise<void>;
  if (driver.kind === "postgres") {
    const sql = driver.client;
    const listening = await sql.listen(channel, onPayload, () => emit({ kind: "all" }));
    stop = () => listening.unlisten();
    publish = async (keyId) => {
      await sql.notify(channel, keyId);
    };
  } else {
    const pg = driver.client;
    stop = await pg.listen(channel, onPayload);
    publish = async (keyId) => {
      await pg.query(NOTIFY_SQL, [channel, keyId]);
    };
  }

  return {
    publish,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await stop();
    },
  };
}

/** Keeps `cache` in step with the bus: forget a key on `key`, a wallet's keys on `wallet`, everything on `all`. */
export function connectCacheToBus(cache: KeyCache, bus: InvalidationBus): () => void {
  return bus.subscribe((event) => {
    if (event.kind === "key") cache.invalidate(event.keyId);
    else if (event.kind === "wallet") cache.invalidateWallet(event.wallet);
    else cache.clear();
  });
}
