import { describe, expect, it } from "vitest";
import { type Session, sessionToken } from "./support/browser.js";
import { closeSecret, createKey, refreshedUsageTotal, signIn, verifyOverRest } from "./support/flows.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

// One wallet's story, in order: each test starts where the previous one left the page.
describe("keys, usage and the session in the browser", () => {
  let stack: Stack;
  let session: Session;
  let secret = "";
  let rolledSecret = "";

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));

  it("signs in with an EIP-6963 wallet: one personal_sign of a message for the page's host", async () => {
    const { page, wallet } = session;
    await page.goto(stack.origin);
    await signIn(page);
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.signed[0]).toMatch(
      new RegExp(
        `^${new URL(stack.origin).host} wants you to sign in with your Ethereum account:\n${wallet.address}\n`,
      ),
    );
    await page.getByText(`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`).waitFor();
    await page.getByRole("heading", { name: "Keys" }).waitFor();
  });

  it("creates a key and shows its secret once: a reload no longer has it", async () => {
    const { page } = session;
    secret = await createKey(page, "e2e key");
    expect(secret).toMatch(/^kp_/);
    const row = page.getByRole("row", { name: /e2e key/ });
    await row.getByText("active", { exact: true }).waitFor();
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it("keeps the session across a reload with no new signature", async () => {
    const { page, wallet } = session;
    await page.reload();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(wallet.signed).toHaveLength(1);
  });

  it("keeps the session token out of localStorage, sessionStorage and document.cookie", async () => {
    const token = await sessionToken(session.context);
    expect(token).toBeTruthy();
    const readable = await session.page.evaluate(() => ({
      local: JSON.stringify(Object.entries(localStorage)),
      session: JSON.stringify(Object.entries(sessionStorage)),
      cookie: document.cookie,
    }));
    for (const place of Object.values(readable)) expect(place).not.toContain(token);
    expect(readable.cookie).not.toContain("keyport_session");
  });

  it("works from the keyboard: a dialog takes focus and keeps it, Escape closes it and focus returns", async () => {
    const { page } = session;
    await page.getByRole("button", { name: "Create key" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.waitFor();
    const focusOutsideDialog = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return active !== null && active !== document.body && active.closest("dialog[open]") === null;
      });
    expect(await focusOutsideDialog()).toBe(false);
    for (let tab = 0; tab < 8; tab++) {
      await page.keyboard.press("Tab");
      expect(await focusOutsideDialog()).toBe(false);
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Create key");
  });

  it("counts a verification made over REST in the usage view", async () => {
    const { page } = session;
    expect(await verifyOverRest(stack.serverUrl, secret)).toMatchObject({ valid: true, code: "VALID" });
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { name: "Usage" }).waitFor();
    await expect.poll(() => refreshedUsageTotal(page)).toBe("1");
    expect(await refreshedUsageTotal(page, "Valid")).toBe("1");
  });

  it("rolls the key: a new secret once, the old one revoking after its grace period", async () => {
    const { page } = session;
    await page.getByRole("link", { name: "Keys" }).click();
    await page
      .getByRole("row", { name: /e2e key/ })
      .getByRole("button", { name: "Roll", exact: true })
      .click();
    const dialog = page.getByRole("dialog", { name: /Roll/ });
    await dialog.getByRole("button", { name: "Roll", exact: true }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    rolledSecret = (await reveal.locator("code").textContent()) ?? "";
    expect(rolledSecret).toMatch(/^kp_/);
    expect(rolledSecret).not.toBe(secret);
    await closeSecret(reveal);
    await page.getByText(/^revoking in (59|60) min$/).waitFor();
    expect(await verifyOverRest(stack.serverUrl, rolledSecret)).toMatchObject({ code: "VALID" });
    expect(await verifyOverRest(stack.serverUrl, secret)).toMatchObject({ code: "VALID" });
  });

  it("revokes the new key after a confirmation, and REST verify then answers REVOKED", async () => {
    const { page } = session;
    const row = page.getByRole("row", { name: /e2e key/ }).filter({ hasNotText: "revoking" });
    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: /Revoke/ });
    await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    await page
      .getByRole("row", { name: /e2e key/ })
      .getByText("revoked", { exact: true })
      .waitFor();
    expect(await verifyOverRest(stack.serverUrl, rolledSecret)).toMatchObject({
      valid: false,
      code: "REVOKED",
    });
  });

  it("signs out: the cookies are gone and the server refuses the old token", async () => {
    const { page, context, wallet } = session;
    const token = await sessionToken(context);
    expect(token).toBeTruthy();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await context.cookies()).toEqual([]);
    const response = await fetch(`${stack.serverUrl}/api-keys/${wallet.address}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    await page.reload();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
  });
});
