import { describe, expect, it } from "vitest";
import {
  changedWebhookFields,
  EMPTY_WEBHOOK_FIELDS,
  parseWebhookForm,
  serverFieldErrors,
} from "./webhook-form";
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
    const ftp = parseWebhookForm({
      url: " ftp://example.com/x ",
      events: ["key.created"],
      description: "  ",
    });
    expect(ftp).toEqual({ ok: true, input: { url: "ftp://example.com/x", events: ["key.created"] } });
  });

  it("puts the server's 400 under the field it names, and anything else on the form", () => {
    const invalid = {
      data: {
        httpStatus: 400,
        issues: [
          { path: ["url"], message: "must be an https URL" },
          { path: ["description"], message: "must be at most 200 characters" },
        ],
      },
    };
    expect(serverFieldErrors(invalid, "Input validation failed")).toEqual([
      { field: "url", message: "The URL must be an https URL." },
      { field: "description", message: "The description must be at most 200 characters." },
    ]);
    // The address policy's refusal: one message about the URL.
    expect(serverFieldErrors({ data: { httpStatus: 400 } }, "url must not be a private address")).toEqual([
      { field: "url", message: "The URL must not be a private address." },
    ]);
    expect(serverFieldErrors({ data: { httpStatus: 409 } }, "at most 10 endpoints")).toEqual([
      { field: null, message: "at most 10 endpoints" },
    ]);
  });

  it("sends only what an edit changed", () => {
    const same = { url: webhook.url, events: ["key.revoked", "key.created"] as const };
    expect(changedWebhookFields(webhook, { ...same, events: [...same.events] })).toBeNull();
    expect(
      changedWebhookFields(webhook, {
        url: "https://example.com/v2",
        events: ["key.created"],
        description: "ci",
      }),
    ).toEqual({ url: "https://example.com/v2", events: ["key.created"], description: "ci" });
  });
});
