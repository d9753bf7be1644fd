// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiKey } from "./key-status";
import { leakedKeyProblem, ReportLeakDialog } from "./ReportLeakDialog";

afterEach(cleanup);

const apiKey: ApiKey = {
  id: "key_aaaaaaaaaaaaaaaa1",
  wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  name: "ci",
  start: "kp_AbCd",
  status: "active",
  createdAt: new Date("2030-01-01T00:00:00Z"),
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  rateLimit: null,
  rateLimits: [],
  permissions: [],
  credits: null,
  meta: null,
  leak: null,
  allowedIps: null,
  issuedBy: null,
};

describe("Report leaked", () => {
  it("accepts only a key that starts as this one does", () => {
    expect(leakedKeyProblem("", "kp_AbCd")).toBe("Paste the key as it was found.");
    expect(leakedKeyProblem("kp_Zzzz0000", "kp_AbCd")).toBe("This is not the key: it starts with kp_AbCd.");
    expect(leakedKeyProblem("kp_AbCdEfGh", "kp_AbCd")).toBeNull();
  });

  it("asks for the key in a dialog and says beside it when the pasted one is another key", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ReportLeakDialog apiKey={apiKey} describedBy="title" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Report leaked" }));
    const dialog = within(screen.getByRole("dialog", { name: "Report “ci” as leaked?" }));
    const input = dialog.getByRole("textbox", { name: "The leaked key" });
    fireEvent.change(input, { target: { value: "kp_Other123" } });
    fireEvent.click(dialog.getByRole("button", { name: "Report and revoke" }));
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(dialog.getByText("This is not the key: it starts with kp_AbCd.").id).toBe(
      input.getAttribute("aria-describedby"),
    );
  });
});
