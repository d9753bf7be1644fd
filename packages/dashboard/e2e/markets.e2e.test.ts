import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, NO_PROBLEMS, openSession, type Session } from "./support/browser.js";
import { signIn } from "./support/flows.js";
import { type Stack, startStack } from "./support/stack.js";

describe("markets in the browser", () => {
  let stack: Stack;
  let browser: Browser;
  let session: Session;

  beforeAll(async () => {
    stack = await startStack(inject("dashboardDir"));
    browser = await launchBrowser();
    session = await openSession(browser, stack.origin);
    await session.page.goto(stack.origin);
    await signIn(session.page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  afterEach(() => {
    expect(session.problems).toEqual(NO_PROBLEMS);
  });

  it("shows the market table through the proxy, in the chosen currency", async () => {
    const { page } = session;
    await page.getByRole("link", { name: "Markets" }).click();
    const table = page.getByRole("table");
    const bitcoin = table.getByRole("row", { name: /Bitcoin/ });
    await bitcoin.getByText("$97,250.12").waitFor();
    await bitcoin.getByText("+1.84 %").waitFor();
    await bitcoin.getByRole("img", { name: /^7 days: / }).waitFor();
    expect(await table.getByRole("row").count()).toBe(6);
    expect(await table.getByRole("columnheader").allTextContents()).toEqual([
      "#",
      "Name",
      "Price",
      "24 h",
      "Market cap",
      "7 days",
    ]);

    await page.getByRole("combobox", { name: "Currency" }).selectOption("eur");
    await bitcoin.getByText("€97,250.12").waitFor();
    expect(new URL(page.url()).search).toBe("?vs=eur");
  });

  it("opens a coin's price chart and switches its range", async () => {
    const { page } = session;
    await page.getByRole("link", { name: "Bitcoin" }).click();
    await page.getByRole("heading", { name: "Bitcoin BTC" }).waitFor();
    await page.getByRole("img", { name: /^Price from €/ }).waitFor();
    const ranges = page.getByRole("group", { name: "Chart range" }).getByRole("button");
    // The proxy runs on CoinGecko's Demo plan, which refuses Max: the page does not offer it.
    expect(await ranges.allTextContents()).toEqual(["1D", "7D", "30D", "90D", "1Y"]);
    await page.getByRole("button", { name: "30D" }).click();
    await page.getByRole("button", { name: "30D", pressed: true }).waitFor();
    await expect
      .poll(() =>
        stack.markets.requests.some((request) => request.startsWith("/coins/bitcoin/market_chart?")),
      )
      .toBe(true);
    expect(stack.markets.requests).toContainEqual(expect.stringMatching(/market_chart\?.*days=30/));
  });
});
