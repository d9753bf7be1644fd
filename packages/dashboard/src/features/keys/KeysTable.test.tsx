import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
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
};

const now = new Date("2030-02-01T00:00:00Z");

function renderTable(keys: ApiKey[]) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <KeysTable keys={keys} now={now} />
    </QueryClientProvider>,
  );
}

describe("KeysTable", () => {
  it("shows each key's fields and offers Roll and Revoke only where they apply", () => {
    const graceEnd = new Date(now.getTime() + 59 * 60_000 + 30_000);
    renderTable([
      base,
      { ...base, id: "key_aaaaaaaaaaaaaaaa2", name: "rolled", revokedAt: graceEnd, rateLimit: null },
      { ...base, id: "key_aaaaaaaaaaaaaaaa3", name: "gone", status: "revoked", revokedAt: new Date(0) },
    ]);
    const rows = screen.getAllByRole("row").slice(1);
    const [active, rolled, gone] = rows.map((row) => within(row));
    expect(active?.getByRole("rowheader", { name: "ci" })).toBeTruthy();
    expect(active?.getByText("kp_AbCd…")).toBeTruthy();
    expect(active?.getByText("100 / 60 s")).toBeTruthy();
    expect(active?.getByRole("button", { name: "Roll" })).toBeTruthy();
    expect(active?.getByRole("button", { name: "Revoke" })).toBeTruthy();

    expect(rolled?.getByText("revoking in 59 min")).toBeTruthy();
    expect(rolled?.queryByRole("button", { name: "Roll" })).toBeNull();
    expect(rolled?.getByRole("button", { name: "Revoke" })).toBeTruthy();

    expect(gone?.getByText("revoked")).toBeTruthy();
    expect(gone?.queryByRole("button")).toBeNull();
  });
});
