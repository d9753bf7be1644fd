import { describe, expect, it } from "vitest";
import type { Session } from "./support/browser.js";
import { createKey } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const PHONE = { width: 390, height: 844 };

/** Verifies `key` over REST as a backend would, asking `ask` (permissions, client ip). */
async function verify(serverUrl: string, key: string, ask: { ip?: string; permissions?: string[] }) {
  const response = await fetch(`${serverUrl}/api-keys/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, ...ask }),
  });
  expect(response.status).toBe(200);
}

describe("a key's recent verifications in the browser", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({ signIn: true }, (opened) => ({ stack, session } = opened));

  it("lists the key's verifications with their outcome in words and the client address, and passes axe at 1280 and 390 px", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 800 });
    const secret = await createKey(page, "recent e2e", { permissions: "prices:read" });
    await page.getByRole("link", { name: "recent e2e", exact: true }).click();
    const section = page.getByRole("region", { name: "Recent verifications" });
    await section.getByText("No verifications of this key yet.", { exact: false }).waitFor();

    await verify(stack.serverUrl, secret, { ip: "203.0.113.7", permissions: ["prices:read"] });
    await verify(stack.serverUrl, secret, { permissions: ["admin:write"] });
    await verify(stack.serverUrl, secret, {});
    // The server writes them with its usage flush, about once a second: read again until all three show.
    const rows = section.locator("tbody tr");
    await expect
      .poll(async () => {
        await section.getByRole("button", { name: "Refresh verifications" }).click();
        return rows.count();
      })
      .toBe(3);

    const cells = async (index: number) =>
      (await rows.nth(index).locator("td").allTextContents()).map((text) => text.trim());
    const [newest, middle, oldest] = [await cells(0), await cells(1), await cells(2)];
    expect(newest.slice(1)).toEqual(["Valid", "none", "1", "—"]);
    expect(middle.slice(1)).toEqual(["Missing permissions", "admin:write", "1", "—"]);
    expect(oldest.slice(1)).toEqual(["Valid", "prices:read", "1", "203.0.113.7"]);
    // Relative time, the exact time on hover.
    const time = rows.nth(0).locator("time");
    expect(await time.textContent()).toMatch(/now|second|minute/);
    expect(await time.getAttribute("title")).toBeTruthy();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.setViewportSize(PHONE);
    await section.getByText("203.0.113.7").waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
