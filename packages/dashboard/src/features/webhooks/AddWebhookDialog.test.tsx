// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AddWebhookDialog } from "./AddWebhookDialog";

afterEach(cleanup);

describe("Add endpoint", () => {
  it("opens with the key events chosen and the others not", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AddWebhookDialog wallet="0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Add endpoint" }));
    const dialog = within(screen.getByRole("dialog", { name: "Add endpoint" }));
    for (const name of ["Key created", "Key revoked", "Key found in public", "Key expired"]) {
      expect(
        (dialog.getByRole("checkbox", { name: new RegExp(`^${name} `) }) as HTMLInputElement).checked,
        name,
      ).toBe(true);
    }
    for (const name of ["Credits low", "Wallet-wide limit changed"]) {
      expect(
        (dialog.getByRole("checkbox", { name: new RegExp(`^${name} `) }) as HTMLInputElement).checked,
        name,
      ).toBe(false);
    }
  });
});
