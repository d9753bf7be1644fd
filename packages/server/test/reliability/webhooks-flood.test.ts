import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { expect, it } from "vitest";
import { enqueueWebhookSql } from "../../src/webhooks/enqueue.js";
import { describeDatabases } from "../support/databases.js";
import { createKeyOver } from "../support/keys.js";
import { startTestServer } from "../support/server.js";
import { pollFor, startWebhookReceiver } from "../support/webhook-receiver.js";

// docs/webhooks.md, "Fairness": the attack as reported. Ten endpoints of one wallet never answer and
// are fed 9,350 deliveries over 15 s (935 events, each to all ten); meanwhile, and after, another
// wallet's key change reaches its endpoint within 2 s. The app runs production's settings.
const EVENTS = 935;
const FLOOD_MS = 15_000;
const TEST_MS = 240_000;

type Session = { token: string; wallet: string };

async function addEndpoint(baseUrl: string, session: Session, url: string): Promise<string> {
  const answer = await request(baseUrl, "POST", `/api-keys/${session.wallet}/webhooks`, {
    token: session.token,
    body: { url, events: ["key.created", "key.revoked"] },
  });
  if (answer.status !== 201) throw new Error(`endpoint not created: ${answer.status}`);
  return (answer.body as { secret: string }).secret;
}

describeDatabases("webhook fairness under a flood", (target) => {
  it(
    "another wallet's events arrive within 2 s while one wallet floods ten endpoints that never answer",
    async () => {
      const hanging = await startWebhookReceiver([], () => undefined);
      const healthy = await startWebhookReceiver([]);
      const server = await startTestServer(target, { WEBHOOKS_ALLOW_PRIVATE: "true" });
      try {
        const flooder = await signIn(server.baseUrl);
        for (let n = 0; n < 10; n++) await addEndpoint(server.baseUrl, flooder, `${hanging.url}?n=${n}`);
        const owner = await signIn(server.baseUrl);
        healthy.setSecrets([await addEndpoint(server.baseUrl, owner, healthy.url)]);

        const started = performance.now();
        const flood = (async () => {
          for (let i = 0; i < EVENTS; i++) {
            // What a key change of the flooding wallet writes: one message, a delivery per endpoint.
            await target.database.db.execute(
              enqueueWebhookSql({
                wallet: flooder.wallet,
                type: "key.revoked",
                keyId: `key_flood_${i}`,
                at: new Date(),
                data: { n: i },
              }),
            );
            const due = started + ((i + 1) * FLOOD_MS) / EVENTS;
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
        })();

        const latencies: number[] = [];
        const probe = async () => {
          const before = healthy.received.length;
          await createKeyOver(server.baseUrl, owner.token, { name: `probe ${latencies.length}` });
          const created = performance.now();
          await pollFor(() => (healthy.received.length > before ? true : undefined));
          latencies.push(performance.now() - created);
        };
        for (const at of [3_000, 8_000, 13_000]) {
          const wait = started + at - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          await probe();
        }
        await flood;
        // After the flood, with the whole backlog (9,350 deliveries) still waiting on dead endpoints.
        await probe();
        console.info(`[${target.kind}] healthy wallet's event latencies under the flood (ms):`, latencies);
        for (const latency of latencies) expect(latency).toBeLessThan(2_000);
        expect(healthy.received.every((received) => received.verifiedBy.length === 1)).toBe(true);
      } finally {
        // The hanging sends end when their receiver goes; then the app stops without waiting 10 s.
        await hanging.close();
        await server.close();
        await healthy.close();
      }
    },
    TEST_MS,
  );
});
