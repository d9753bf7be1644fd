import { describe, expect, it } from "vitest";
import { changedWebhookFields, EMPTY_WEBHOOK_FIELDS, parseWebhookForm, serverFieldError } from "./webhook-form";
import type { Webhook } from "./webhook-words";

const webhook: Webhook = {
  id: "wh_0123456789abcdefghijAB",
  url: "https://example.com/hooks",
  events: ["key.created", "key.revoked"],
  description: null,
  enabled: true,
  createdAt: new Date("2026-11-01T00:00:00Z"),
  disabledReason: null,
};

describe("the webhook form", () => {
  it("names every wrong field at once: no URL, no event", () => {
    expect(parseWebhookForm(EMPTY_WEBHOOK_FIELDS)).toEqual({
      ok: false,
      errors: [
        { field: "url", message: "Enter the URL that receives the events." },
        { field: "events", message: "Choose at least one event." },
      ],
    });
  });

  it("refuses what is not a URL, and leaves the scheme to the server", () => {
    const notUrl = parseWebhookForm({ ...EMPTY_WEBHOOK_FIELDS, url: "not a url", events: ["key.created"] });
    expect(notUrl).toMatchObject({ ok: false, errors: [{ field: "url" }] });
    const ftp = parseWebhookForm({ url: " ftp://example.com/x ", events: ["key.created"], description: "  " });
    expect(ftp).toEqual({ ok: true, input: { url: "ftp://example.com/x", events: ["key.created"] } });
  });

  it("puts the server's 400 under the field it names, and anything else on the form", () => {
    const refused = { data: { httpStatus: 400 } };
    expect(serverFieldError(refused, "url: must be an https URL").field).toBe("url");
    expect(serverFieldError(refused, "description: too long").field).toBe("description");
    expect(serverFieldError({ data: { httpStatus: 409 } }, "at most 10 endpoints").field).toBeNull();
  });

  it("sends only what an edit changed", () => {
    const same = { url: webhook.url, events: ["key.revoked", "key.created"] as const };
    expect(changedWebhookFields(webhook, { ...same, events: [...same.events] })).toBeNull();
    expect(
      changedWebhookFields(webhook, { url: "https://example.com/v2", events: ["key.created"], description: "ci" }),
    ).toEqual({ url: "https://example.com/v2", events: ["key.created"], description: "ci" });
  });
});
