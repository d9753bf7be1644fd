import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../lib/format";
import { describeAction, describeChanges, describeEvent, describeKey, type KeyEvent } from "./event-words";

const at = new Date("2030-01-01T12:00:00Z");
const keyNames = new Map([
  ["key_aaaaaaaaaaaaaaaa1", "billing"],
  ["key_aaaaaaaaaaaaaaaa2", "billing (new)"],
]);
const event = (action: KeyEvent["action"], changes: Record<string, unknown>): KeyEvent => ({
  id: "1",
  action,
  keyId: action.startsWith("key.") ? "key_aaaaaaaaaaaaaaaa1" : null,
  at,
  changes,
});

describe("describeAction and describeKey", () => {
  it("names every action in words", () => {
    expect(describeAction("key.updated")).toBe("Key updated");
    expect(describeAction("session.created")).toBe("Signed in");
    expect(describeAction("session.ended")).toBe("Signed out");
  });

  it("names the key when it is known, else shows its id, and nothing for a session event", () => {
    expect(describeKey("key_aaaaaaaaaaaaaaaa1", keyNames)).toBe("“billing”");
    expect(describeKey("key_zzzzzzzzzzzzzzzz9", keyNames)).toBe("key_zzzzzzzzzzzzzzzz9");
    expect(describeKey(null, keyNames)).toBeNull();
  });
});

describe("a suspension by the operator", () => {
  it("says who in general and why, and a lifting without a reason as none", () => {
    const suspended = event("wallet.suspended", { actor: "operator", reason: "chargeback" });
    expect(describeEvent(suspended)).toBe("Wallet suspended by the operator");
    expect(describeChanges(suspended, keyNames)).toEqual([
      { label: "Why", value: "chargeback" },
      { label: "By", value: "operator" },
    ]);
    const lifted = event("wallet.unsuspended", { actor: "operator", reason: null });
    expect(describeEvent(lifted)).toBe("Wallet suspension lifted by the operator");
    expect(describeChanges(lifted, keyNames)).toContainEqual({ label: "Why", value: "none" });
  });
});

describe("describeEvent", () => {
  it("says a wallet-limit change with the limit now in force, and the one before as its line", () => {
    const set = event("limits.updated", {
      rateLimit: { limit: 100, windowSeconds: 60 },
      previousRateLimit: null,
    });
    expect(describeEvent(set)).toBe("Wallet-wide limit set to 100 per minute");
    expect(describeChanges(set, keyNames)).toEqual([{ label: "Before", value: "none" }]);
    const removed = event("limits.updated", {
      rateLimit: null,
      previousRateLimit: { limit: 5, windowSeconds: 30 },
    });
    expect(describeEvent(removed)).toBe("Wallet-wide limit removed");
    expect(describeChanges(removed, keyNames)).toEqual([{ label: "Before", value: "5 per 30 seconds" }]);
    expect(describeAction("limits.updated")).toBe("Wallet-wide limit changed");
  });

  it("is the action in words for every other event", () => {
    expect(describeEvent(event("key.revoked", { revokedAt: at.toISOString() }))).toBe("Key revoked");
  });

  it("says where a leaked key was found and who reported it, or that its holder did", () => {
    const leaked = event("key.leaked", {
      url: "https://github.com/o/r/blob/x/a.js",
      source: "github:content",
      revokedAt: at.toISOString(),
    });
    expect(describeEvent(leaked)).toBe("Key found in public and revoked");
    expect(describeChanges(leaked, keyNames, at)).toEqual([
      { label: "Revoked", value: formatDateTime(at, "never") },
      { label: "Found at", value: "https://github.com/o/r/blob/x/a.js" },
      { label: "Reported by", value: "github:content" },
    ]);
    const self = event("key.leaked", { url: null, source: "self-report", revokedAt: at.toISOString() });
    expect(describeChanges(self, keyNames, at).slice(1)).toEqual([
      { label: "Found at", value: "reported by its holder" },
      { label: "Reported by", value: "its holder" },
    ]);
  });
});

describe("describeChanges", () => {
  it("writes a top-up's amount, credits, payer and transaction", () => {
    const payer = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    const checksummedPayer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const transaction = `0x${"ab".repeat(32)}`;
    const toppedUp = event("key.topped_up", { amount: "5", credits: 5000, payer, transaction });
    expect(describeEvent(toppedUp)).toBe("Credits topped up");
    expect(describeChanges(toppedUp, keyNames)).toEqual([
      { label: "Amount", value: "5 USDC" },
      { label: "Credits added", value: (5000).toLocaleString() },
      { label: "Payer", value: checksummedPayer },
      { label: "Transaction", value: transaction, copyable: true },
    ]);
  });

  it("writes a created key's policy for people", () => {
    const expiresAt = "2031-06-01T10:00:00.000Z";
    expect(
      describeChanges(
        event("key.created", {
          name: "billing",
          expiresAt,
          rateLimit: { limit: 10, windowSeconds: 60 },
          permissions: ["prices:read", "keys.*"],
          credits: { remaining: 100, refill: { interval: "daily", amount: 100 } },
          meta: { customerId: "cus_1" },
        }),
        keyNames,
      ),
    ).toEqual([
      { label: "Name", value: "“billing”" },
      { label: "Expiry", value: formatDateTime(new Date(expiresAt)) },
      { label: "Rate limit", value: "10 / 60 s" },
      { label: "Permissions", value: "prices:read, keys.*" },
      { label: "Credits", value: "100 left, refills to 100 daily" },
      { label: "Metadata", value: '{"customerId":"cus_1"}' },
    ]);
  });

  it("writes cleared fields as none or never", () => {
    expect(
      describeChanges(
        event("key.updated", {
          expiresAt: null,
          rateLimit: null,
          permissions: [],
          credits: null,
          meta: null,
          allowedIps: null,
        }),
        keyNames,
      ).map((line) => `${line.label}: ${line.value}`),
    ).toEqual([
      "Expiry: never",
      "Rate limit: none",
      "Permissions: none",
      "Credits: unlimited",
      "Metadata: none",
      "Allowed IP addresses: any address",
    ]);
  });

  it("lists an allow-list's blocks", () => {
    const lines = describeChanges(
      event("key.updated", { allowedIps: ["10.0.0.0/8", "2001:db8::/32"] }),
      keyNames,
    );
    expect(lines).toEqual([{ label: "Allowed IP addresses", value: "10.0.0.0/8, 2001:db8::/32" }]);
  });

  it("names a roll's new key and its grace period, a revocation ahead in the future tense, and a session's end", () => {
    const rolled = event("key.rolled", {
      rolledTo: "key_aaaaaaaaaaaaaaaa2",
      revokedAt: "2030-01-01T13:00:00.000Z",
      gracePeriodSeconds: 3600,
    });
    const during = new Date("2030-01-01T12:30:00.000Z");
    expect(describeChanges(rolled, keyNames, during).map((line) => `${line.label}: ${line.value}`)).toEqual([
      "New key: billing (new)",
      `Revokes at: ${formatDateTime(new Date("2030-01-01T13:00:00.000Z"))}`,
      "Grace period: 60 min",
    ]);
    const after = new Date("2030-01-01T13:00:01.000Z");
    expect(describeChanges(rolled, keyNames, after).map((line) => line.label)).toEqual([
      "New key",
      "Revoked",
      "Grace period",
    ]);
    expect(
      describeChanges(event("session.created", { expiresAt: "2030-01-02T12:00:00.000Z" }), keyNames),
    ).toEqual([{ label: "Session ends", value: formatDateTime(new Date("2030-01-02T12:00:00.000Z")) }]);
    expect(describeChanges(event("session.ended", {}), keyNames)).toEqual([]);
  });

  it("lists fields in the dialogs' order whatever order the stored JSON has, unknown ones last", () => {
    const changes = { meta: null, tier: 1, credits: null, name: "a", expiresAt: null };
    expect(describeChanges(event("key.updated", changes), keyNames).map((line) => line.label)).toEqual([
      "Name",
      "Expiry",
      "Credits",
      "Metadata",
      "Tier",
    ]);
  });

  it("names an unknown field in words and joins a list, never a raw name or a JSON array", () => {
    expect(
      describeChanges(
        event("key.updated", { tier: { a: 1 }, rateLimit: "fast", previousScopes: ["a", "b"] }),
        keyNames,
      ),
    ).toEqual([
      { label: "Rate limit", value: "fast" },
      { label: "Tier", value: '{"a":1}' },
      { label: "Previous scopes", value: "a, b" },
    ]);
  });
});

describe("a webhook endpoint's events", () => {
  const webhookId = "wh_aaaaaaaaaaaaaaaa";

  it("words an added endpoint: its URL as the endpoint's, its events by name", () => {
    const added = event("webhook.created", {
      webhookId,
      url: "https://hooks.example.com/keyport",
      events: ["key.created", "key.leaked"],
      description: null,
    });
    expect(describeEvent(added)).toBe("Webhook endpoint added");
    const lines = describeChanges(added, keyNames);
    expect(lines).toEqual([
      { label: "Endpoint URL", value: "https://hooks.example.com/keyport" },
      { label: "Events", value: "Key created, Key found in public" },
      { label: "Description", value: "none" },
      { label: "Endpoint id", value: webhookId },
    ]);
    expect(lines.map((line) => line.label)).not.toContain("Found at");
    expect(lines.map((line) => line.value).join(" ")).not.toMatch(/[[\]"]/);
  });

  it("words a change, a rotated secret and a disabled endpoint", () => {
    const until = "2030-01-02T12:00:00.000Z";
    expect(
      describeChanges(
        event("webhook.updated", {
          webhookId,
          enabled: false,
          secretRotated: true,
          previousSecretExpiresAt: until,
        }),
        keyNames,
      ).map((line) => `${line.label}: ${line.value}`),
    ).toEqual([
      "Deliveries: paused",
      "Signing secret: rotated",
      `Previous secret accepted until: ${formatDateTime(new Date(until))}`,
      `Endpoint id: ${webhookId}`,
    ]);
    expect(
      describeChanges(
        event("webhook.disabled", { webhookId, reason: "failing", url: "https://h.example/x" }),
        keyNames,
      ).map((line) => `${line.label}: ${line.value}`),
    ).toEqual([
      "Endpoint URL: https://h.example/x",
      "Why: deliveries failed for 3 days",
      `Endpoint id: ${webhookId}`,
    ]);
  });
});

describe("named rate limits in an event", () => {
  const keyEvent = (changes: Record<string, unknown>): KeyEvent => ({
    id: "9",
    keyId: "key_aaaaaaaaaaaaaaaa1",
    action: "key.updated",
    at: new Date("2030-01-01T00:00:00Z"),
    changes,
  });

  it("shows only the rate limit line while the key has no limit but the default one", () => {
    const lines = describeChanges(
      keyEvent({
        rateLimit: { limit: 10, windowSeconds: 60 },
        rateLimits: [{ name: "default", limit: 10, windowSeconds: 60, autoApply: true }],
      }),
      new Map(),
    );
    expect(lines).toEqual([{ label: "Rate limit", value: "10 / 60 s" }]);
    expect(describeChanges(keyEvent({ rateLimit: null, rateLimits: [] }), new Map())).toEqual([
      { label: "Rate limit", value: "none" },
    ]);
  });

  it("names every limit, and those applied only when a request asks, once there are others", () => {
    const lines = describeChanges(
      keyEvent({
        rateLimit: { limit: 10, windowSeconds: 60 },
        rateLimits: [
          { name: "default", limit: 10, windowSeconds: 60, autoApply: true },
          { name: "tokens", limit: 200_000, windowSeconds: 60, autoApply: false },
        ],
      }),
      new Map(),
    );
    expect(lines).toEqual([
      { label: "Rate limit", value: "10 / 60 s" },
      { label: "Rate limits", value: "default 10 / 60 s, tokens 200,000 / 60 s (when asked)" },
    ]);
  });
});
