import { eq } from "drizzle-orm";
import type { LiveCredits } from "../credits/overlay-live.js";
import { overlayLive } from "../credits/overlay-live.js";
import type { Db } from "../db/database.js";
import { apiKeys, wallets } from "../db/schema/index.js";
import { loadCredits } from "../keys/key-credits.js";
import { hashKey } from "../keys/secret.js";
import { toApiKey } from "../keys/status.js";
import type { ApiKey, ApiKeyStatus } from "../schemas/api-key.js";
import type { TopUpQuoteOutput } from "../schemas/top-up.js";
import type { StoredAnswer } from "./answer.js";
import type { TopUps } from "./top-up.js";

/** A key as the top-up's checks read it. */
export interface TopUpKeyView {
  id: string;
  wallet: string;
  status: ApiKeyStatus;
  /** null: the key has no credits (unmetered), so it cannot be topped up. */
  creditsId: string | null;
  /** The operator suspended the key's wallet: no top-up is taken. */
  suspended: boolean;
}

/** A top-up's end as the procedure answers it. */
export type TopUpAnswer =
  | { kind: "payment_required"; message: string; header: string }
  | { kind: "credited"; answer: Extract<StoredAnswer, { kind: "credited" }> }
  | { kind: "unavailable"; recorded: boolean };

/**
 * What the top-up procedures use (docs/payments.md): the project's own types only, so `AppRouter`
 * names no payment library. `payments` is null while payments are off.
 */
export interface TopUpService {
  key(id: string, now: Date): Promise<TopUpKeyView | null>;
  /** The id of the key whose secret this is, or null. */
  holderOf(secret: string): Promise<string | null>;
  /** The key's public shape with its live balance. */
  apiKey(id: string, now: Date): Promise<ApiKey | null>;
  payments: {
    quote(amount: string): ({ ok: true } & TopUpQuoteOutput) | { ok: false; message: string };
    /** The 402 for a request without a payment: message and PAYMENT-REQUIRED header. */
    unpaid(amount: string, resource: string): { message: string; header: string } | null;
    pay(
      key: TopUpKeyView & { creditsId: string },
      amount: string,
      payment: string,
      resource: string,
    ): Promise<TopUpAnswer>;
  } | null;
}

/** The top-up service over the database and, when payments are on, `topUps`. */
export function createTopUpService(
  db: Db,
  topUps: TopUps | null,
  liveCredits: LiveCredits | undefined,
): TopUpService {
  async function row(id: string) {
    const [found] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
    return found;
  }
  return {
    async key(id, now) {
      const [found] = await db
        .select({ key: apiKeys, suspendedAt: wallets.suspendedAt })
        .from(apiKeys)
        .leftJoin(wallets, eq(wallets.address, apiKeys.wallet))
        .where(eq(apiKeys.id, id));
      if (found === undefined) return null;
      return {
        id: found.key.id,
        wallet: found.key.wallet,
        status: toApiKey(found.key, now).status,
        creditsId: found.key.creditsId,
        suspended: found.suspendedAt !== null,
      };
    },
    async holderOf(secret) {
      const [found] = await db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(eq(apiKeys.hash, hashKey(secret)));
      return found?.id ?? null;
    },
    async apiKey(id, now) {
      const found = await row(id);
      if (found === undefined) return null;
      const credits = await overlayLive(await loadCredits(db, [found]), liveCredits, now);
      return toApiKey(found, now, found.creditsId === null ? undefined : credits.get(found.creditsId));
    },
    payments:
      topUps === null
        ? null
        : {
            quote(amount) {
              const priced = topUps.quote(amount);
              if (!priced.ok) return priced;
              const { requirement } = priced;
              return {
                ok: true,
                amount: priced.amount,
                credits: priced.credits,
                requirement: {
                  scheme: "exact",
                  network: requirement.network,
                  amount: requirement.amount,
                  asset: requirement.asset,
                  payTo: requirement.payTo,
                  maxTimeoutSeconds: requirement.maxTimeoutSeconds,
                  extra: { name: topUps.settings.assetName, version: topUps.settings.assetVersion },
                },
              };
            },
            unpaid(amount, resource) {
              const priced = topUps.quote(amount);
              if (!priced.ok) return null;
              const result = topUps.unpaid(resource, priced.requirement);
              return result.kind === "payment_required"
                ? { message: result.message, header: result.header }
                : null;
            },
            async pay(key, amount, payment, resource) {
              const priced = topUps.quote(amount);
              if (!priced.ok) throw new Error("amount was not quoted first");
              return topUps.topUp(
                { id: key.id, creditsId: key.creditsId, wallet: key.wallet },
                priced,
                payment,
                resource,
              );
            },
          },
  };
}
