import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Session } from "./support/browser.js";
import { closeSecret, refreshedUsageTotal, signIn } from "./support/flows.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const verification = z.looseObject({ code: z.string() });

/** Verifies `key` over REST as a backend would, for a client at `ip`; the answer's code. */
async function codeFrom(serverUrl: string, key: string, ip?: string): Promise<string> {
  const response = await fetch(`${serverUrl}/api-keys/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, ip }),
  });
  expect(response.status).toBe(200);
  return verification.parse(await response.json()).code;
}

/** The key page's "Allowed IP addresses" entry, as its lines. */
async function shownAllowList(page: Page): Promise<string[]> {
  const entry = page
    .locator("dl.details > div")
    .filter({ has: page.locator("dt", { hasText: "Allowed IP addresses" }) })
    .locator("dd");
  const items = await entry.locator("li").allTextContents();
  return items.length > 0 ? items : [((await entry.textContent()) ?? "").trim()];
}

// One key's story, in order: each test starts where the previous one left the page.
describe("IP allow-lists in the browser", () => {
  let stack: Stack;
  let session: Session;
  let secret = "";

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));

  it("creates a key bound to addresses, naming a bad entry beside the field first", async () => {
    const { page } = session;
    await page.goto(stack.origin);
    await signIn(page);
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("office only");
    const field = dialog.getByRole("textbox", { name: "Allowed IP addresses (optional)" });
    await field.fill("10.1.2.3/8\n10.0.0.300, 2001:DB8::1");
    await dialog.getByRole("button", { name: "Create" }).click();
    const error = dialog.getByText(
      "“10.0.0.300” is not an IP address or CIDR block, like 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32.",
    );
    await error.waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await field.getAttribute("aria-describedby")).toContain(await error.getAttribute("id"));
    await field.fill("10.1.2.3/8\n2001:DB8::1, 10.0.0.0/8");
    await dialog.getByRole("button", { name: "Create" }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    secret = (await reveal.locator("code").first().textContent()) ?? "";
    expect(secret).toMatch(/^kp_/);
    await closeSecret(reveal);

    expect(await codeFrom(stack.serverUrl, secret, "10.200.0.1")).toBe("VALID");
    expect(await codeFrom(stack.serverUrl, secret, "::ffff:10.200.0.1")).toBe("VALID");
    expect(await codeFrom(stack.serverUrl, secret, "2001:db8::1")).toBe("VALID");
    expect(await codeFrom(stack.serverUrl, secret, "11.0.0.1")).toBe("IP_NOT_ALLOWED");
    expect(await codeFrom(stack.serverUrl, secret)).toBe("IP_NOT_ALLOWED");
  });

  it("shows the normalised list on the key's page", async () => {
    const { page } = session;
    await page.getByRole("link", { name: "office only", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: /office only/ }).waitFor();
    expect(await shownAllowList(page)).toEqual(["10.0.0.0/8", "2001:db8::1/128"]);
  });

  it("edits the list, then clears it to allow any address", async () => {
    const { page } = session;
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Edit “office only”" });
    const field = dialog.getByRole("textbox", { name: "Allowed IP addresses (optional)" });
    expect(await field.inputValue()).toBe("10.0.0.0/8\n2001:db8::1/128");
    await field.fill("203.0.113.77/24");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => shownAllowList(page)).toEqual(["203.0.113.0/24"]);
    expect(await codeFrom(stack.serverUrl, secret, "203.0.113.255")).toBe("VALID");
    expect(await codeFrom(stack.serverUrl, secret, "10.0.0.1")).toBe("IP_NOT_ALLOWED");

    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await field.fill("");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => shownAllowList(page)).toEqual(["Any address"]);
    expect(await codeFrom(stack.serverUrl, secret, "10.0.0.1")).toBe("VALID");
    expect(await codeFrom(stack.serverUrl, secret)).toBe("VALID");
  });

  it("counts the refusals in the usage view as IP not allowed", async () => {
    const { page } = session;
    await page.getByRole("navigation").getByRole("link", { name: "Usage", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
    await expect.poll(() => refreshedUsageTotal(page, "IP not allowed")).toBe("3");
  });
});
