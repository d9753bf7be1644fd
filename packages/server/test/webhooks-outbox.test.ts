import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries, webhookMessages, webhooks } from "../src/db/schema/index.js";
import { enqueueWebhookSql } from "../src/webhooks/enqueue.js";
import { describeDatabases } from "./support/databases.js";

const WALLET = "0x00000000000000000000000000000000000000aa";

describeDatabases("the webhook outbox", (target) => {
  const addEndpoint = (id: string, events: string[], enabled = true) =>
    target.database.db
      .insert(webhooks)
      .values({ id, wallet: WALLET, url: "https://example.com/hook", events, enabled, secret: "v1:x" });

  it("writes one message and a delivery per enabled subscribed endpoint, nothing for a wallet without one", async () => {
    await addEndpoint("wh_a000000000000000000000", ["key.revoked", "key.created"]);
    await addEndpoint("wh_b000000000000000000000", ["key.revoked"]);
    await addEndpoint("wh_c000000000000000000000", ["key.created"]);
    await addEndpoint("wh_d000000000000000000000", ["key.revoked"], false);
    const at = new Date("2026-11-27T12:00:00.000Z");
    const event = { wallet: WALLET, type: "key.revoked" as const, keyId: "key_1", at, data: { id: "key_1" } };
    await target.database.db.execute(enqueueWebhookSql(event));
    await target.database.db.execute(
      enqueueWebhookSql({ ...event, wallet: "0x00000000000000000000000000000000000000bb" }),
    );
    const messages = await target.database.db.select().from(webhookMessages);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(messages[0]?.payload).toEqual({
      type: "key.revoked",
      timestamp: at.toISOString(),
      data: { id: "key_1" },
    });
    const deliveries = await target.database.db.select().from(webhookDeliveries);
    expect(deliveries.map((row) => row.webhookId).sort()).toEqual([
      "wh_a000000000000000000000",
      "wh_b000000000000000000000",
    ]);
    expect(deliveries.every((row) => row.status === "pending" && row.attempts === 0)).toBe(true);
  });

  it("sends an event with a dedupe key once, however often it is produced", async () => {
    const event = {
      wallet: WALLET,
      type: "key.created" as const,
      keyId: "key_2",
      at: new Date(),
      data: {},
      dedupeKey: "key.created:key_2",
    };
    await target.database.db.execute(enqueueWebhookSql(event));
    await target.database.db.execute(enqueueWebhookSql(event));
    const rows = await target.database.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.dedupeKey, "key.created:key_2"));
    expect(rows).toHaveLength(1);
  });
});

describe("message ids", () => {
  it("sort by creation time", async () => {
    const { newMessageId } = await import("../src/webhooks/message-id.js");
    const early = newMessageId(new Date("2026-01-01T00:00:00Z"));
    const late = newMessageId(new Date("2026-01-01T00:00:00.001Z"));
    expect(early < late).toBe(true);
  });

  it("count up within one millisecond, so events made together keep their order", async () => {
    const { newMessageId } = await import("../src/webhooks/message-id.js");
    const at = new Date("2026-01-01T00:00:00Z");
    const ids = Array.from({ length: 50 }, () => newMessageId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
    expect(ids.every((id) => /^msg_[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
  });
});
