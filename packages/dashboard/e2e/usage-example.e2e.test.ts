import { describe, expect, it } from "vitest";
import { NO_PROBLEMS, type Session } from "./support/browser.js";
import { closeSecret, signIn, verifyOverRest } from "./support/flows.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

// The key-created dialog's example points @keyport/verify at the Keyport server the proxy names in
// /api/meta (KEYPORT_PUBLIC_URL, default its KEYPORT_URL), not at a fixed localhost:3000: here the
// server listens on a random loopback port.
describe("the key-created dialog's @keyport/verify example", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));

  it("uses the server's URL as baseUrl, with a secret that verifies there, and says how to install the package", async () => {
    const { page } = session;
    await page.goto(stack.origin);
    await signIn(page);
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("example key");
    await dialog.getByRole("button", { name: "Create" }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    const example = reveal.getByRole("region", { name: "Use it with @keyport/verify" });
    const code = (await example.getByRole("region", { name: "Example code" }).textContent()) ?? "";
    expect(code).toContain(`keyport({ baseUrl: ${JSON.stringify(stack.serverUrl)} })`);
    expect(code).not.toContain("localhost:3000");
    const call = (await example.getByRole("region", { name: "Test call" }).textContent()) ?? "";
    const secret = /Bearer (kp_[0-9A-Za-z]+)/.exec(call)?.[1] ?? "";
    expect(await verifyOverRest(stack.serverUrl, secret)).toMatchObject({ code: "VALID" });
    expect(await example.textContent()).toContain("pnpm pack:public");
    await closeSecret(reveal);
    expect(session.problems).toEqual(NO_PROBLEMS);
  });
});
