// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FALLBACK_META, type Meta } from "../../lib/meta";
import { KeysTable } from "./KeysTable";
import type { ApiKey } from "./key-status";

afterEach(cleanup);

const wallet = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const base: ApiKey = {
  id: "key_aaaaaaaaaaaaaaaa1",
  wallet,
  name: "ci",
  start: "kp_AbCd",
  status: "active",
  createdAt: new Date("2030-01-01T00:00:00Z"),
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  rateLimit: { limit: 100, windowSeconds: 60 },
  rateLimits: [{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }],
  permissions: [],
  credits: null,
  meta: null,
  leak: null,
  allowedIps: null,
  issuedBy: null,
};

const now = new Date("2030-02-01T00:00:00Z");

function renderTable(keys: ApiKey[], meta: Partial<Meta> = {}) {
  const client = new QueryClient();
  // What the proxy's /api/meta said, as the page would have read it.
  client.setQueryData(["meta"], { ...FALLBACK_META, ...meta });
  return render(
    <QueryClientProvider client={client}>
      <KeysTable keys={keys} now={now} />
    </QueryClientProvider>,
  );
}

describe("KeysTable", () => {
  it("shows each key's fields and offers Edit, Roll and Revoke only where they apply", () => {
    const graceEnd = new Date(now.getTime() + 59 * 60_000 + 30_000);
    renderTable([
      base,
      { ...base, id: "key_aaaaaaaaaaaaaaaa2", name: "rolled", revokedAt: graceEnd, rateLimit: null },
      { ...base, id: "key_aaaaaaaaaaaaaaaa3", name: "gone", status: "revoked", revokedAt: new Date(0) },
    ]);
    const rows = screen.getAllByRole("row").slice(1);
    const [active, rolled, gone] = rows.map((row) => within(row));
    expect(active?.getByRole("rowheader", { name: /^ci kp_/ })).toBeTruthy();
    expect(active?.getByText("kp_AbCd…")).toBeTruthy();
    expect(active?.getByText("100 / 60 s")).toBeTruthy();
    expect(active?.getByRole("button", { name: "Edit" })).toBeTruthy();
    expect(active?.getByRole("button", { name: "Roll" })).toBeTruthy();
    expect(active?.getByRole("button", { name: "Revoke" })).toBeTruthy();

    expect(rolled?.getByText("revoking in 59 min")).toBeTruthy();
    expect(rolled?.queryByRole("button", { name: "Roll" })).toBeNull();
    expect(rolled?.queryByRole("button", { name: "Edit" })).toBeNull();
    expect(rolled?.getByRole("button", { name: "Revoke" })).toBeTruthy();

    expect(gone?.getByText("revoked")).toBeTruthy();
    expect(gone?.queryByRole("button")).toBeNull();
  });

  it("shows permissions and credits compactly, with the whole list and the refill in the title", () => {
    renderTable([
      {
        ...base,
        permissions: ["prices:read", "keys.*", "usage:read"],
        credits: {
          remaining: 1_500,
          purchased: 0,
          refill: { interval: "daily", amount: 2_000 },
          refilledAt: null,
        },
      },
      { ...base, id: "key_aaaaaaaaaaaaaaaa2", name: "plain", status: "expired" },
    ]);
    const [metered, plain] = screen
      .getAllByRole("row")
      .slice(1)
      .map((row) => within(row));
    const permissions = metered?.getByText("prices:read, keys.* +1 more");
    expect(permissions?.getAttribute("title")).toBe("prices:read, keys.*, usage:read");
    const credits = metered?.getByText(/^1,500 left/);
    expect(credits?.textContent).toBe("1,500 left refill 2,000/day");
    expect(credits?.getAttribute("title")).toBe("1,500 left, refills to 2,000 daily");
    expect(plain?.getByText("none")).toBeTruthy();
    expect(plain?.getByText("unlimited")).toBeTruthy();
    // An expired key can be edited (a new expiry makes it active again), not rolled.
    expect(plain?.getByRole("button", { name: "Edit" })).toBeTruthy();
    expect(plain?.queryByRole("button", { name: "Roll" })).toBeNull();
  });

  it("links each name to the key's page and words last use relative to now, the exact time on hover", () => {
    renderTable([{ ...base, lastUsedAt: new Date(now.getTime() - 3 * 3_600_000) }]);
    const link = screen.getByRole("link", { name: "ci" });
    expect(link.getAttribute("href")).toBe("/keys/key_aaaaaaaaaaaaaaaa1");
    const used = screen.getByText("3 hours ago");
    expect(used.tagName).toBe("TIME");
    expect(used.getAttribute("title")).toMatch(/2030/);
  });

  it("offers Top up on a metered key only while the server takes payments", () => {
    const metered: ApiKey = {
      ...base,
      credits: { remaining: 10, purchased: 0, refill: null, refilledAt: null },
    };
    const payments = {
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      decimals: 6,
      creditsPerToken: 1000,
      min: "1",
      max: "1000",
    };
    renderTable([metered], { payments });
    expect(screen.getByRole("button", { name: "Top up" })).toBeTruthy();
    cleanup();
    renderTable([metered], { payments: null });
    expect(screen.queryByRole("button", { name: "Top up" })).toBeNull();
    expect(screen.getByRole("button", { name: "Edit" })).toBeTruthy();
  });
});
