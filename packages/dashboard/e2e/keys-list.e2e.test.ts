import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type PageProblems, type Session, sessionToken } from "./support/browser.js";
import { closeSecret, signIn, verifyOverRest } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** axe at 1280 and 390 px, and nothing scrolls sideways at 390 px. */
async function checkBothWidths(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.setViewportSize(DESKTOP);
}

const search = (page: Page) => new URL(page.url()).search;

/** Chromium logs a refused request as a console error: drops those of `status` a test provoked, and returns them. */
function forgetRefusals(problems: PageProblems, status: number): string[] {
  const refused = problems.consoleErrors.filter((line) => line.includes(`status of ${status}`));
  const kept = problems.consoleErrors.filter((line) => !line.includes(`status of ${status}`));
  problems.consoleErrors.splice(0, problems.consoleErrors.length, ...kept);
  return refused;
}

// The keys list's search, filter, sort and pages (kept in the URL), and the page per key.
describe("the keys list and a page per key", () => {
  let stack: Stack;
  let session: Session;
  const ids = new Map<string, string>();
  let betaSecret = "";

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));

  async function createOverRest(name: string): Promise<string> {
    const token = await sessionToken(session.context);
    const response = await fetch(`${stack.serverUrl}/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { key: string; apiKey: { id: string } };
    ids.set(name, body.apiKey.id);
    return body.key;
  }

  it("shows the total and pages of 20, the page in the URL, kept on reload and undone by Back", async () => {
    const { page } = session;
    await page.goto(stack.origin);
    await signIn(page);
    for (let index = 1; index <= 21; index++) await createOverRest(`alpha ${String(index).padStart(2, "0")}`);
    betaSecret = await createOverRest("beta");
    await createOverRest("gamma");
    const token = await sessionToken(session.context);
    const revoked = await fetch(`${stack.serverUrl}/api-keys/${ids.get("gamma")}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);
    expect(await verifyOverRest(stack.serverUrl, betaSecret)).toMatchObject({ code: "VALID" });

    await page.reload();
    await page.getByText("23 keys", { exact: true }).waitFor();
    const rows = page.getByRole("region", { name: "API keys" }).locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Page 2 of 2").waitFor();
    expect(search(page)).toBe("?page=2");
    await expect.poll(() => rows.count()).toBe(3);
    await page.reload();
    await page.getByText("Page 2 of 2").waitFor();
    await page.goBack();
    await page.getByText("Page 1 of 2").waitFor();
    expect(search(page)).toBe("");
  });

  it("searches by name or start, filters by status and sorts, all in the URL and kept on reload", async () => {
    const { page } = session;
    const box = page.getByRole("searchbox", { name: "Search" });
    await box.fill("bet");
    await page.getByText("1 of 23 keys match").waitFor();
    expect(search(page)).toBe("?q=bet");
    await page.getByRole("link", { name: "beta", exact: true }).waitFor();

    await box.fill("");
    await page.getByRole("combobox", { name: "Status" }).selectOption("revoked");
    await page.getByText("1 of 23 keys match").waitFor();
    await page.getByRole("link", { name: "gamma", exact: true }).waitFor();
    expect(search(page)).toBe("?status=revoked");

    await page.getByRole("combobox", { name: "Status" }).selectOption("active");
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("name");
    expect(search(page)).toBe("?status=active&sort=name");
    await page.reload();
    await page.getByText("22 of 23 keys match").waitFor();
    expect(await page.getByRole("combobox", { name: "Sort by" }).inputValue()).toBe("name");
    const names = page.getByRole("region", { name: "API keys" }).locator("tbody th a");
    await expect.poll(() => names.first().textContent()).toBe("alpha 01");

    // Last used first: the only key used so far leads.
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("last-used");
    await expect.poll(() => names.first().textContent()).toBe("beta");
    await page.goBack();
    await expect.poll(() => names.first().textContent()).toBe("alpha 01");

    // Searching by the key's start finds it too.
    const start =
      (await page
        .getByRole("row", { name: /alpha 07/ })
        .locator("code")
        .textContent()) ?? "";
    await box.fill(start.replace("…", ""));
    await page.getByText(/^1 of 23 keys match$/).waitFor();
  });

  it("keeps every action in view at 1280 px, shows a card per key at 390 px, and passes axe at both", async () => {
    const { page } = session;
    await page.goto(`${stack.origin}/keys`);
    await page.getByText("23 keys", { exact: true }).waitFor();
    const table = page.getByRole("region", { name: "API keys" });
    expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(
      0,
    );
    for (const button of await page.getByRole("button", { name: "Revoke", exact: true }).all()) {
      const box = await button.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(DESKTOP.width);
    }
    await checkBothWidths(page);
    await page.setViewportSize(PHONE);
    const card = page.getByRole("row", { name: /beta/ });
    expect(await card.evaluate((element) => getComputedStyle(element).display)).toBe("block");
    const revoke = card.getByRole("button", { name: "Revoke", exact: true });
    const box = await revoke.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);
  });

  it("opens a key's page from its name: id with a copy button, details, usage, activity, recent verifications", async () => {
    const { page, context } = session;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.origin });
    await page.getByRole("searchbox", { name: "Search" }).fill("beta");
    await page.getByRole("link", { name: "beta", exact: true }).click();
    const id = ids.get("beta") ?? "";
    await page.getByRole("heading", { level: 1, name: /beta/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/keys/${id}`);
    await page.getByText(id, { exact: true }).waitFor();
    await page.getByRole("button", { name: "Copy ID" }).click();
    await page.getByText("Copied", { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

    const lastUsed = page.locator("dt", { hasText: "Last used" }).locator("xpath=..").locator("time");
    expect(await lastUsed.textContent()).toMatch(/now|minute/);
    expect(await lastUsed.getAttribute("title")).toMatch(/\d{4}/);
    await page.getByRole("heading", { name: "Usage, last 7 days" }).waitFor();
    await page.getByRole("heading", { name: "Recent verifications" }).waitFor();
    // Its one verification (a REST verify in the set-up) is listed once the usage flush has run.
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh verifications" }).click();
          return page.getByRole("cell", { name: "Valid", exact: true }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await page
      .getByRole("list", { name: "Events of this key, newest first" })
      .getByText("Key created")
      .waitFor();
    await expect
      .poll(async () => {
        await page.getByRole("button", { name: "Refresh usage" }).click();
        const total = page
          .locator(".total")
          .filter({ has: page.getByText("All verifications", { exact: true }) });
        return (await total.locator("dd").textContent())?.trim();
      })
      .toBe("1");
    await checkBothWidths(page);

    // Back to the list, where the search is still in the URL.
    await page.goBack();
    await page.getByText("1 of 23 keys match").waitFor();
    expect(search(page)).toBe("?q=beta");
  });

  it("opens a key's page by its URL, and says so for an id the wallet does not hold", async () => {
    const { page } = session;
    await page.goto(`${stack.origin}/keys/${ids.get("gamma")}`);
    await page.getByRole("heading", { level: 1, name: /gamma/ }).waitFor();
    await page.getByText("revoked", { exact: true }).first().waitFor();
    expect(await page.getByRole("button", { name: "Revoke", exact: true }).count()).toBe(0);

    await page.goto(`${stack.origin}/keys/key_doesnotexist00000000`);
    await page.getByRole("heading", { name: "Key not found" }).waitFor();
    // The page asked the server for the key (keys.get), which answered 404; Chromium logs that refusal.
    expect(forgetRefusals(session.problems, 404)).toEqual([expect.stringContaining("/trpc/keys.get")]);
    await page.getByRole("link", { name: "Back to your keys" }).click();
    await page.getByRole("heading", { name: "Keys", exact: true }).waitFor();
    // Not a key id at all: the same answer, without asking the server.
    await page.goto(`${stack.origin}/keys/not_a_key_id`);
    await page.getByRole("heading", { name: "Key not found" }).waitFor();
  });

  it("shows the key read again after a roll and a revoke made on its page", async () => {
    const { page } = session;
    await page.goto(`${stack.origin}/keys/${ids.get("alpha 01")}`);
    const title = page.getByRole("heading", { level: 1, name: /alpha 01/ });
    await title.waitFor();
    await page.getByRole("button", { name: "Roll", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Roll/ })
      .getByRole("button", { name: "Roll", exact: true })
      .click();
    await closeSecret(page.getByRole("dialog", { name: "Your new key" }));
    // The rolled key in its grace period: revoking later, and not to be rolled twice.
    await title.getByText(/revoking in/).waitFor();
    await page.locator(".details dt", { hasText: "Revokes at" }).waitFor();
    expect(await page.getByRole("button", { name: "Roll", exact: true }).count()).toBe(0);

    await page.getByRole("button", { name: "Revoke", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Revoke/ })
      .getByRole("button", { name: "Revoke", exact: true })
      .click();
    await title.getByText("revoked", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Revoke", exact: true }).count()).toBe(0);
  });
});
