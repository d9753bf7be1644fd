import { mkdir } from "node:fs/promises";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Session, sessionToken } from "./support/browser.js";
import { closeSecret, refreshedUsageTotal, signIn } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

// `E2E_SCREENSHOT_DIR=/some/folder` also writes pictures of the new views at 1280 and 390 px.
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const verification = z.looseObject({ code: z.string(), keyId: z.string().nullable() });

/** Verifies `key` over REST as a backend would, asking for `permissions` and `cost`; the whole answer. */
async function verify(serverUrl: string, key: string, permissions?: string[], cost?: number) {
  const response = await fetch(`${serverUrl}/api-keys/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, permissions, cost }),
  });
  expect(response.status).toBe(200);
  return verification.parse(await response.json());
}

/** An activity entry's changes as `Label: value` lines, in the order shown. */
function changeLines(event: Locator): Promise<string[]> {
  return event
    .locator("dl > div")
    .evaluateAll((pairs) =>
      pairs.map(
        (pair) => `${pair.querySelector("dt")?.textContent}: ${pair.querySelector("dd")?.textContent}`,
      ),
    );
}

/** Axe finds nothing serious, at 1280 and at 390 px, where nothing scrolls sideways; optional pictures. */
async function checkView(page: Page, name: string): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
  if (SCREENSHOT_DIR !== undefined) {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-1280.png`, fullPage: true });
  }
  await page.setViewportSize(PHONE);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  if (SCREENSHOT_DIR !== undefined) {
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-390.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

// One wallet's story, in order: each test starts where the previous one left the page.
describe("key policies, the wallet-wide limit and the activity view in the browser", () => {
  let stack: Stack;
  let session: Session;
  let secret = "";

  useDashboardSuite({ viewport: DESKTOP }, (opened) => ({ stack, session } = opened));

  it("creates a key with permissions, credits with a daily refill and metadata, and shows how to use it", async () => {
    const { page } = session;
    await page.goto(stack.origin);
    await signIn(page);
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("billing backend");
    await dialog.getByRole("textbox", { name: "Permissions (optional)" }).fill("prices:read, keys.*");
    await dialog.getByRole("spinbutton", { name: "Remaining" }).fill("3");
    await dialog.getByRole("combobox", { name: "Refill" }).selectOption("daily");
    await dialog.getByRole("spinbutton", { name: "Refill to" }).fill("100");
    await dialog.getByRole("textbox", { name: "Metadata (optional)" }).fill('{"customerId": "cus_123"}');
    await checkView(page, "create-key-dialog");

    // A mistake is named before anything is sent.
    await dialog.getByRole("textbox", { name: "Metadata (optional)" }).fill('{"customerId": }');
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.getByText("The metadata is not valid JSON.").waitFor();
    await dialog.getByRole("textbox", { name: "Metadata (optional)" }).fill('{"customerId": "cus_123"}');
    await dialog.getByRole("button", { name: "Create" }).click();

    const reveal = page.getByRole("dialog", { name: "Your new key" });
    secret = (await reveal.locator("code").first().textContent()) ?? "";
    expect(secret).toMatch(/^kp_/);
    const example = reveal.getByRole("region", { name: "Example code" });
    expect(await example.textContent()).toContain('import { keyport } from "@keyport/verify/h3";');
    expect(await reveal.getByRole("region", { name: "Test call" }).textContent()).toContain(
      `Authorization: Bearer ${secret}`,
    );
    await checkView(page, "key-created-dialog");
    await closeSecret(reveal);

    const row = page.getByRole("row", { name: /billing backend/ });
    await row.getByText("prices:read, keys.*", { exact: true }).waitFor();
    expect(await row.getByText(/left/).textContent()).toBe("3 left refill 100/day");

    expect(await verify(stack.serverUrl, secret, ["prices:read", "keys.roll"])).toMatchObject({
      code: "VALID",
      permissions: ["prices:read", "keys.*"],
      credits: { remaining: 2 },
      meta: { customerId: "cus_123" },
    });
    expect(await verify(stack.serverUrl, secret, ["admin"])).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
    });
  });

  it("edits the key: name, permissions, credits and metadata change, the rest stays", async () => {
    const { page } = session;
    await page.reload();
    const row = page.getByRole("row", { name: /billing backend/ });
    await row.getByRole("button", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Edit “billing backend”" });
    expect(await dialog.getByRole("textbox", { name: "Permissions (optional)" }).inputValue()).toBe(
      "prices:read, keys.*",
    );
    expect(await dialog.getByRole("spinbutton", { name: "Remaining" }).inputValue()).toBe("2");
    await checkView(page, "edit-key-dialog");

    await dialog.getByRole("textbox", { name: "Name" }).fill("billing v2");
    await dialog.getByRole("textbox", { name: "Permissions (optional)" }).fill("prices:read");
    await dialog.getByRole("spinbutton", { name: "Remaining" }).fill("50");
    await dialog.getByRole("textbox", { name: "Metadata (optional)" }).fill('{"customerId": "cus_456"}');
    await dialog.getByRole("button", { name: "Add a limit" }).click();
    await dialog.getByRole("spinbutton", { name: "Requests" }).fill("1000");
    await dialog.getByRole("spinbutton", { name: "Per seconds" }).fill("60");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });

    const edited = page.getByRole("row", { name: /billing v2/ });
    await edited.getByText("50 left refill 100/day").waitFor();
    await edited.getByText("prices:read", { exact: true }).waitFor();
    await edited.getByText("1,000 / 60 s").waitFor();
    expect(await verify(stack.serverUrl, secret, ["keys.roll"])).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
    });
    expect(await verify(stack.serverUrl, secret, ["prices:read"])).toMatchObject({
      code: "VALID",
      credits: { remaining: 49 },
      meta: { customerId: "cus_456" },
    });
  });

  it("sets the wallet-wide limit, which then binds every key, and removes it", async () => {
    const { page } = session;
    const panel = page.getByRole("region", { name: "Wallet-wide limit" });
    await panel.getByText("Now: none").waitFor();
    await panel.getByRole("spinbutton", { name: "Requests" }).fill("0");
    await panel.getByRole("spinbutton", { name: "Per seconds" }).fill("60");
    await panel.getByRole("button", { name: "Set limit" }).click();
    await panel
      .getByRole("alert")
      .getByText(/whole number of requests from 1/)
      .waitFor();

    await panel.getByRole("spinbutton", { name: "Requests" }).fill("1");
    await panel.getByRole("button", { name: "Set limit" }).click();
    await panel.getByText("Now: 1 / 60 s across all keys").waitFor();
    // The confirmation is a toast in the page's status region, outside the panel.
    await page.getByRole("status").getByText("Wallet-wide limit saved.").waitFor();
    await checkView(page, "keys-with-wallet-limit");

    expect(await verify(stack.serverUrl, secret)).toMatchObject({ code: "VALID" });
    expect(await verify(stack.serverUrl, secret)).toMatchObject({ code: "RATE_LIMITED" });

    await page.reload();
    await panel.getByText("Now: 1 / 60 s across all keys").waitFor();
    await panel.getByRole("button", { name: "Remove limit" }).click();
    await panel.getByText("Now: none").waitFor();
    expect(await verify(stack.serverUrl, secret)).toMatchObject({ code: "VALID" });
  });

  it("lists the wallet's activity newest first, in words, a page at a time", async () => {
    const { page, context } = session;
    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    const events = page.getByRole("list", { name: "Events, newest first" }).getByRole("listitem");
    await events.first().waitFor();
    expect(await events.count()).toBe(5);
    const [removed, set, updated, created, signedIn] = [
      events.nth(0),
      events.nth(1),
      events.nth(2),
      events.nth(3),
      events.nth(4),
    ];
    // The wallet-wide limit's set and removal, each with the limit before it.
    await removed.getByText("Wallet-wide limit removed").waitFor();
    expect(await changeLines(removed)).toEqual(["Before: 1 per minute"]);
    await set.getByText("Wallet-wide limit set to 1 per minute").waitFor();
    expect(await changeLines(set)).toEqual(["Before: none"]);
    await updated.getByText("Key updated").waitFor();
    // Only what the dialog changed was sent: no expiry in the update.
    expect(await changeLines(updated)).toEqual([
      "Name: “billing v2”",
      "Rate limit: 1,000 / 60 s",
      "Permissions: prices:read",
      "Credits: 50 left, refills to 100 daily",
      'Metadata: {"customerId":"cus_456"}',
    ]);
    await created.getByText("Key created").waitFor();
    expect(await changeLines(created)).toEqual([
      "Name: “billing backend”",
      "Expiry: never",
      "Rate limit: none",
      "Permissions: prices:read, keys.*",
      "Credits: 3 left, refills to 100 daily",
      'Metadata: {"customerId":"cus_123"}',
      "Allowed IP addresses: any address",
    ]);
    await signedIn.getByText("Signed in").waitFor();
    await checkView(page, "activity");

    // The action filter offers wallet-limit changes.
    await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Wallet-wide limit changed" });
    await expect.poll(() => events.count()).toBe(2);
    await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "All actions" });
    await expect.poll(() => events.count()).toBe(5);

    // 20 more changes over REST, as a script would make them: the first page is the newest 20.
    const token = await sessionToken(context);
    const { keyId } = await verify(stack.serverUrl, secret);
    for (let change = 1; change <= 20; change++) {
      const response = await fetch(`${stack.serverUrl}/api-keys/${keyId}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `billing v${change + 2}` }),
      });
      expect(response.status).toBe(200);
    }
    await page.getByRole("button", { name: "Refresh" }).click();
    await events.first().getByText("“billing v22”").first().waitFor();
    expect(await events.count()).toBe(20);
    await page.getByRole("button", { name: "Older" }).click();
    await page.getByText("Page 2").waitFor();
    await events.getByText("Signed in").waitFor();
    expect(await events.count()).toBe(5);
    await page.getByRole("button", { name: "Newer" }).click();
    await events.first().getByText("“billing v22”").first().waitFor();
  });

  it("counts missing permissions and exhausted credits in the usage view beside the other outcomes", async () => {
    const { page } = session;
    expect(await verify(stack.serverUrl, secret, undefined, 1000)).toMatchObject({ code: "USAGE_EXCEEDED" });
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { name: "Usage" }).waitFor();
    // Two asked for a permission the key lacked; one cost more than its balance; one met the wallet limit.
    await expect.poll(() => refreshedUsageTotal(page, "Missing permissions")).toBe("2");
    await expect.poll(() => refreshedUsageTotal(page, "Out of credits")).toBe("1");
    await expect.poll(() => refreshedUsageTotal(page, "Rate limited")).toBe("1");
    await page.getByRole("img", { name: /^Verifications per day/ }).waitFor();
    await checkView(page, "usage");
  });
});
