import { beforeAll, describe, expect, it } from "vitest";
import { NO_PROBLEMS, type Session, sessionToken } from "./support/browser.js";
import { createKey, refreshedUsageTotal, signIn, verifyOverRest } from "./support/flows.js";
import { seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const KEY_ID = /^key_[0-9A-Za-z]{16,64}$/;

describe("usage and activity: filters in the URL, a table per key, times in the right tense", () => {
  let stack: Stack;
  let session: Session;
  let alphaId = "";

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));
  beforeAll(async () => {
    const { page } = session;
    await page.goto(stack.origin);
    await signIn(page);
    const alpha = await createKey(page, "alpha");
    const beta = await createKey(page, "beta");
    for (const key of [alpha, alpha, beta])
      expect((await verifyOverRest(stack.serverUrl, key)).valid).toBe(true);
    const token = await sessionToken(session.context);
    const keys = await fetch(`${stack.serverUrl}/api-keys/${session.wallet.address}?status=all`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await keys.json()) as { keys: { id: string; name: string }[] };
    alphaId = body.keys.find((key) => key.name === "alpha")?.id ?? "";
    expect(alphaId).toMatch(KEY_ID);
  });

  it("shows the range's verifications per key, with range and key kept in the URL", async () => {
    const { page, problems } = session;
    await page.setViewportSize(DESKTOP);
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("button", { name: "24 hours" }).click();
    expect(new URL(page.url()).search).toBe("?range=24h");
    await expect.poll(() => refreshedUsageTotal(page)).toBe("3");

    const table = page.getByRole("region", { name: "Verifications by key" });
    const alphaRow = table.getByRole("row").filter({ hasText: "alpha" });
    expect(await alphaRow.getByRole("cell").first().textContent()).toBe("2");
    expect(
      await table.getByRole("row").filter({ hasText: "beta" }).getByRole("cell").first().textContent(),
    ).toBe("1");
    // Tooltips in words, and the peak above the chart, not among the axis dates.
    const titles = await page.locator(".chart-svg rect title").allTextContents();
    expect(titles.some((title) => /: Valid, 3 verifications$/.test(title))).toBe(true);
    expect(await page.locator(".chart-scale").textContent()).not.toMatch(/max/i);
    await page.getByText("Busiest hour: 3 verifications").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await alphaRow.getByRole("link", { name: "alpha" }).click();
    expect(new URL(page.url()).search).toBe(`?range=24h&key=${alphaId}`);
    await page.reload();
    await page.getByRole("button", { name: "24 hours", pressed: true }).waitFor();
    expect(await page.getByRole("combobox", { name: "Key" }).inputValue()).toBe(alphaId);
    await page
      .locator(".total")
      .filter({ hasText: "All verifications" })
      .getByText("2", { exact: true })
      .waitFor();
    await page.setViewportSize(PHONE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual(NO_PROBLEMS);
  });

  it("filters activity by key and action in the URL, and words a revocation still ahead as future", async () => {
    const { page, problems, context } = session;
    await page.setViewportSize(DESKTOP);
    const token = await sessionToken(context);
    // A roll with an hour's grace: the old key revokes in an hour.
    const roll = await fetch(`${stack.serverUrl}/api-keys/${alphaId}/roll`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ gracePeriodSeconds: 3600 }),
    });
    expect(roll.status).toBe(201);

    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("combobox", { name: "Key" }).selectOption(alphaId);
    expect(new URL(page.url()).search).toBe(`?key=${alphaId}`);
    const events = page.getByRole("list", { name: "Events, newest first" });
    await expect.poll(() => events.getByRole("listitem").count()).toBe(2);
    await events.getByText("Key rolled").waitFor();
    await events.getByText("Revokes at").waitFor();
    expect(await events.getByText("Revoked", { exact: true }).count()).toBe(0);

    await page.getByRole("combobox", { name: "Action" }).selectOption("key.created");
    expect(new URL(page.url()).search).toBe(`?key=${alphaId}&action=key.created`);
    await expect.poll(() => events.getByRole("listitem").count()).toBe(1);
    await page.reload();
    expect(await page.getByRole("combobox", { name: "Action" }).inputValue()).toBe("key.created");
    await expect.poll(() => events.getByRole("listitem").count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual(NO_PROBLEMS);
  });
});
