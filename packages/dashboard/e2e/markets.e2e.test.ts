import { describe, expect, it } from "vitest";
import type { Session } from "./support/browser.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

describe("markets in the browser", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({ signIn: true }, (opened) => ({ stack, session } = opened));

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
