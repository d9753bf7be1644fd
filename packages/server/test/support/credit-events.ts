import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../src/db/database.js";
import {
  apiKeys,
  keyCredits,
  webhookDeliveries,
  webhookMessages,
  webhooks,
} from "../../src/db/schema/index.js";
import { creditsValues } from "../../src/keys/key-credits.js";
import type { CreditsRefill } from "../../src/schemas/key-policy.js";

/** A key with a balance, and a wallet of its own with one endpoint subscribed to the credit events. */
export interface CreditEventKey {
  wallet: string;
  keyId: string;
  creditsId: string;
}

/**
 * Creates a key with credits set at `at` in a fresh wallet, and (unless `endpoint: false`) an
 * enabled endpoint of that wallet subscribed to credits.low and credits.exhausted.
 */
export async function createCreditEventKey(
  db: Db,
  credits: { remaining: number; refill: CreditsRefill | null; purchased?: number; at: number },
  options: { endpoint?: boolean } = {},
): Promise<CreditEventKey> {
  const tag = randomBytes(8).toString("hex");
  const wallet = `0x${tag.padStart(40, "0")}`;
  const keyId = `key_${tag}`;
  const creditsId = keyId;
  await db.insert(keyCredits).values({
    id: creditsId,
    ...creditsValues({ remaining: credits.remaining, refill: credits.refill }, new Date(credits.at)),
    purchased: credits.purchased ?? 0,
  });
  await db.insert(apiKeys).values({
    id: keyId,
    wallet,
    name: "metered",
    hash: randomBytes(32).toString("hex"),
    start: "kp_test",
    creditsId,
  });
  if (options.endpoint !== false) {
    await db.insert(webhooks).values({
      id: `wh_${tag.padEnd(22, "0")}`,
      wallet,
      url: "https://example.com/hook",
      events: ["credits.low", "credits.exhausted"],
      secret: "v1:x",
    });
  }
  return { wallet, keyId, creditsId };
}

/** The messages of a wallet's outbox, oldest first, with their delivery count. */
export async function outboxOf(db: Db, wallet: string) {
  const messages = await db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.wallet, wallet))
    .orderBy(asc(webhookMessages.id));
  const out = [];
  for (const message of messages) {
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.messageId, message.id));
    out.push({ ...message, deliveries: deliveries.length });
  }
  return out;
}

/** Just the event types of a wallet's outbox, oldest first. */
export async function typesOf(db: Db, wallet: string): Promise<string[]> {
  return (await outboxOf(db, wallet)).map((message) => message.type);
}
