import type { Locator, Page } from "playwright-core";
import { z } from "zod";

/** Signs in from the signed-out screen and waits for the signed-in header. */
export async function signIn(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

/** Creates a key through the "Create key" dialog; returns the secret it showed once. */
export async function createKey(
  page: Page,
  name: string,
  policy: { permissions?: string; credits?: string; refill?: "daily" | "monthly"; refillTo?: string } = {},
): Promise<string> {
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create key" });
  await dialog.getByRole("textbox", { name: "Name" }).fill(name);
  if (policy.permissions !== undefined)
    await dialog.getByRole("textbox", { name: "Permissions (optional)" }).fill(policy.permissions);
  if (policy.credits !== undefined)
    await dialog.getByRole("spinbutton", { name: "Remaining" }).fill(policy.credits);
  if (policy.refill !== undefined)
    await dialog.getByRole("combobox", { name: "Refill" }).selectOption(policy.refill);
  if (policy.refillTo !== undefined)
    await dialog.getByRole("spinbutton", { name: "Refill to" }).fill(policy.refillTo);
  await dialog.getByRole("button", { name: "Create" }).click();
  const reveal = page.getByRole("dialog", { name: "Your new key" });
  const secret = (await reveal.locator("code").first().textContent()) ?? "";
  await closeSecret(reveal);
  return secret;
}

/** Leaves the shown-once secret without copying it: "Done", then "Close without copying" when asked. */
export async function closeSecret(reveal: Locator): Promise<void> {
  await reveal.getByRole("button", { name: "Done" }).click();
  await reveal.getByRole("button", { name: "Close without copying" }).click();
  await reveal.waitFor({ state: "hidden" });
}

const verification = z.object({ valid: z.boolean(), code: z.string() });

/** Verifies `key` over REST as a backend would (`POST /api-keys/verify` on the Keyport server). */
export async function verifyOverRest(serverUrl: string, key: string): Promise<z.output<typeof verification>> {
  const response = await fetch(`${serverUrl}/api-keys/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  if (response.status !== 200) throw new Error(`verify answered ${response.status}`);
  return verification.parse(await response.json());
}

/**
 * The usage view's "All verifications" total after one more "Refresh" (usage reaches the database
 * about once a second, so callers poll this with expect.poll).
 */
export async function refreshedUsageTotal(page: Page, label = "All verifications"): Promise<string> {
  await Promise.all([
    page.waitForResponse((response) => response.url().includes("usage.get")),
    page.getByRole("button", { name: "Refresh" }).click(),
  ]);
  const total = page.locator(".total").filter({ has: page.getByText(label, { exact: true }) });
  return ((await total.locator("dd").textContent()) ?? "").trim();
}
