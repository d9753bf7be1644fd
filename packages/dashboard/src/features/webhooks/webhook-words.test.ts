import { WEBHOOK_EVENT_TYPES } from "@keyport/server/schemas";
import { describe, expect, it } from "vitest";
import {
  describeDeliveryStatus,
  describeEvents,
  describeEventType,
  describeWebhookState,
  EVENT_GROUPS,
  webhookCapNotice,
} from "./webhook-words";

describe("webhook words", () => {
  it("says why an endpoint is disabled", () => {
    expect(describeWebhookState({ enabled: true, disabledReason: null })).toBe("Enabled");
    expect(describeWebhookState({ enabled: false, disabledReason: "gone" })).toBe(
      "Disabled: the endpoint answered 410 Gone",
    );
    expect(describeWebhookState({ enabled: false, disabledReason: "failing" })).toBe(
      "Disabled after 3 days of failed deliveries",
    );
    expect(describeWebhookState({ enabled: false, disabledReason: "manual" })).toBe("Disabled by you");
  });

  it("names every event, every one once in a group, and every one at once as All events", () => {
    expect(describeEventType("credits.low")).toBe("Credits low");
    expect(describeEventType("webhook.test")).toBe("Test event");
    expect(describeEventType("something.new")).toBe("something.new");
    expect(EVENT_GROUPS.flatMap((group) => group.events).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(EVENT_GROUPS.map((group) => group.label)).toEqual([
      "Keys",
      "Credits",
      "Limits",
      "Wallet",
      "Endpoints",
    ]);
    expect(describeEvents([...WEBHOOK_EVENT_TYPES])).toBe("All events");
    expect(describeEvents(["key.revoked", "credits.low"])).toBe("Key revoked, Credits low");
  });

  it("tells a first send from a retry, and a delivered message from a failed or dropped one", () => {
    expect(describeDeliveryStatus({ status: "pending", attempts: 0 })).toBe("Pending");
    expect(describeDeliveryStatus({ status: "pending", attempts: 2 })).toBe("Retrying");
    expect(describeDeliveryStatus({ status: "succeeded", attempts: 1 })).toBe("Delivered");
    expect(describeDeliveryStatus({ status: "failed", attempts: 8 })).toBe("Failed");
    expect(describeDeliveryStatus({ status: "dropped", attempts: 0 })).toBe("Dropped");
  });

  it("warns one endpoint before the cap and at it", () => {
    expect(webhookCapNotice(8, 10)).toBeNull();
    expect(webhookCapNotice(9, 10)).toBe("near");
    expect(webhookCapNotice(10, 10)).toBe("full");
  });
});
