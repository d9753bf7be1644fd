import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { pollFor, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

interface DeliveryBody {
  id: string;
  messageId: string;
  status: string;
  attempts: number;
  statusCode: number | null;
}

// The management API end to end: what test, rotate and redeliver queue, the app's own delivery
// engine sends to a real receiver that verifies signatures with the `standardwebhooks` package.
describeDatabases("webhooks API to a real receiver", (target) => {
  let server: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await startTestServer(target, { WEBHOOKS_ALLOW_PRIVATE: "true" });
    receiver = await startWebhookReceiver([]);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it("delivers a test event signed with the secret create answered, redelivers it under the same webhook-id, and signs with both secrets after a rotation", async () => {
    const session = await signIn(server.baseUrl);
    const base = `/api-keys/${session.wallet}/webhooks`;
    const created = await request(server.baseUrl, "POST", base, {
      token: session.token,
      body: { url: receiver.url, events: ["key.revoked"] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { webhook, secret } = created.body as { webhook: { id: string }; secret: string };
    receiver.setSecrets([secret]);

    const tested = await request(server.baseUrl, "POST", `${base}/${webhook.id}/test`, {
      token: session.token,
    });
    expect(tested.status).toBe(202);
    const { delivery } = tested.body as { delivery: DeliveryBody };
    const first = await pollFor(() => receiver.received[0]);
    expect(first.verifiedBy).toEqual([secret]);
    expect(first.headers["webhook-id"]).toBe(delivery.messageId);
    expect(JSON.parse(first.body)).toEqual({
      type: "webhook.test",
      timestamp: expect.any(String),
      data: { webhookId: webhook.id, message: "This is a test event from Keyport" },
    });

    const log = async () =>
      (
        (await request(server.baseUrl, "GET", `${base}/${webhook.id}/deliveries`, { token: session.token }))
          .body as { deliveries: DeliveryBody[] }
      ).deliveries;
    const succeeded = await pollFor(async () => (await log()).find((row) => row.status === "succeeded"));
    expect(succeeded).toMatchObject({ id: delivery.id, attempts: 1, statusCode: 204 });

    const again = await request(
      server.baseUrl,
      "POST",
      `${base}/${webhook.id}/deliveries/${delivery.id}/redeliver`,
      { token: session.token },
    );
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    const second = await pollFor(() => receiver.received[1]);
    expect(second.headers["webhook-id"]).toBe(delivery.messageId);
    expect(second.body).toBe(first.body);
    expect(second.verifiedBy).toEqual([secret]);
    await pollFor(async () => (await log()).find((row) => row.attempts === 2 && row.status === "succeeded"));

    const rotated = await request(server.baseUrl, "POST", `${base}/${webhook.id}/rotate-secret`, {
      token: session.token,
    });
    const next = (rotated.body as { secret: string }).secret;
    receiver.setSecrets([secret, next]);
    await request(server.baseUrl, "POST", `${base}/${webhook.id}/test`, { token: session.token });
    const third = await pollFor(() => receiver.received[2]);
    expect(third.verifiedBy).toEqual([secret, next]);
    expect(receiver.received).toHaveLength(3);
  });
});
