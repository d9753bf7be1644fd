import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Session } from "./support/browser.js";
import { closeSecret } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const PHONE = { width: 390, height: 844 };
// Where the screenshots of this test go, for a person to look at (not compared).
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

/** Verifies `key` over REST as a backend would, naming limits with a cost. */
async function verify(serverUrl: string, key: string, ratelimits?: { name: string; cost: number }[]) {
  const response = await fetch(`${serverUrl}/api-keys/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, ...(ratelimits ? { ratelimits } : {}) }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { code: string }).code;
}

/** Fills one row of the key form's rate limits. */
async function fillLimit(
  row: Locator,
  limit: { name?: string; requests: string; per: string; everyRequest?: boolean },
) {
  if (limit.name !== undefined) await row.getByRole("textbox", { name: "Limit name" }).fill(limit.name);
  await row.getByRole("spinbutton", { name: "Requests" }).fill(limit.requests);
  await row.getByRole("spinbutton", { name: "Per seconds" }).fill(limit.per);
  if (limit.everyRequest === false)
    await row.getByRole("checkbox", { name: "Applies to every request" }).uncheck();
}

describe("a key's named rate limits in the browser", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({ signIn: true }, (opened) => ({ stack, session } = opened));

  it("creates a key with two limits, edits the list, shows their live use and names the limit that refused", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("limits e2e");
    await dialog.getByRole("button", { name: "Add a limit" }).click();
    // The first row is named default, as the single-limit shape calls it.
    const first = dialog.getByRole("group", { name: "Limit 1" });
    expect(await first.getByRole("textbox", { name: "Limit name" }).inputValue()).toBe("default");
    await fillLimit(first, { requests: "3", per: "86400" });
    await dialog.getByRole("button", { name: "Add a limit" }).click();
    const second = dialog.getByRole("group", { name: "Limit 2" });
    // A name used twice is refused beside the second row's name, before any request.
    await fillLimit(second, { name: "default", requests: "1000", per: "3600", everyRequest: false });
    await dialog.getByRole("button", { name: "Create" }).click();
    const secondName = second.getByRole("textbox", { name: "Limit name" });
    await expect.poll(() => secondName.getAttribute("aria-invalid")).toBe("true");
    await dialog.getByText("The name “default” is used twice.").waitFor();
    expect(await first.getByRole("textbox", { name: "Limit name" }).getAttribute("aria-invalid")).toBeNull();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/limits-form-1280.png` });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await secondName.fill("tokens");
    await dialog.getByRole("button", { name: "Create" }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    const secret = (await reveal.locator("code").first().textContent()) ?? "";
    await closeSecret(reveal);

    await page.getByRole("link", { name: "limits e2e", exact: true }).click();
    const limits = page.getByRole("region", { name: "Rate limits" });
    const useRows = limits.locator("tbody tr");
    const limitsNow = async () =>
      (await useRows.evaluateAll((rows) =>
        rows.map((row) =>
          [...row.querySelectorAll("th, td")].slice(0, 4).map((cell) => cell.textContent?.trim()),
        ),
      )) as string[][];
    await expect.poll(limitsNow).toEqual([
      ["default", "0 of 3", "3 per day", "every request"],
      ["tokens", "0 of 1,000", "1,000 per hour", "requests naming it"],
    ]);

    // Edit the list: the default limit tightened, a third one added.
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const edit = page.getByRole("dialog", { name: "Edit “limits e2e”" });
    await fillLimit(edit.getByRole("group", { name: "Limit 1" }), { requests: "2", per: "86400" });
    await edit.getByRole("button", { name: "Add a limit" }).click();
    await fillLimit(edit.getByRole("group", { name: "Limit 3" }), {
      name: "hourly",
      requests: "100",
      per: "3600",
    });
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "hidden" });
    await expect.poll(limitsNow).toEqual([
      ["default", "0 of 2", "2 per day", "every request"],
      ["tokens", "0 of 1,000", "1,000 per hour", "requests naming it"],
      ["hourly", "0 of 100", "100 per hour", "every request"],
    ]);

    // Two verifications that spend tokens, then one the default limit refuses.
    expect(await verify(stack.serverUrl, secret, [{ name: "tokens", cost: 250 }])).toBe("VALID");
    expect(await verify(stack.serverUrl, secret, [{ name: "tokens", cost: 250 }])).toBe("VALID");
    expect(await verify(stack.serverUrl, secret)).toBe("RATE_LIMITED");
    await limits.getByRole("button", { name: "Refresh limits" }).click();
    await expect.poll(limitsNow).toEqual([
      ["default", "2 of 2", "2 per day", "every request"],
      ["tokens", "500 of 1,000", "1,000 per hour", "requests naming it"],
      ["hourly", "2 of 100", "100 per hour", "every request"],
    ]);

    const recent = page.getByRole("region", { name: "Recent verifications" });
    const rows = recent.locator("tbody tr");
    await expect
      .poll(async () => {
        await recent.getByRole("button", { name: "Refresh verifications" }).click();
        return rows.count();
      })
      .toBe(3);
    const outcome = async (index: number) =>
      (await rows.nth(index).locator("td").nth(1).textContent())?.trim();
    expect([await outcome(0), await outcome(1), await outcome(2)]).toEqual([
      "Rate limited by default",
      "Valid",
      "Valid",
    ]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/limits-key-1280.png`, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.setViewportSize(PHONE);
    await limits.getByText("500 of 1,000").waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/limits-key-390.png`, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const phoneEdit = page.getByRole("dialog", { name: "Edit “limits e2e”" });
    await phoneEdit.getByRole("group", { name: "Limit 3" }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/limits-form-390.png` });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Removing a row is named for the limit it removes.
    await phoneEdit.getByRole("button", { name: "Remove limit “hourly”" }).click();
    expect(await phoneEdit.getByRole("group", { name: "Limit 3" }).count()).toBe(0);
    await phoneEdit.getByRole("button", { name: "Save" }).click();
    await phoneEdit.waitFor({ state: "hidden" });
    await expect.poll(async () => (await limitsNow()).map((row) => row[0])).toEqual(["default", "tokens"]);
  });
});
