import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./support/browser.js";
import { type Stack, startStack } from "./support/stack.js";

// The server's /docs page (packages/server/src/http/docs.ts) turns off the API reference's cloud
// features: they cannot work offline and would send the OpenAPI document to Scalar. The reference
// shows them by default on a local address such as this test's 127.0.0.1 (docs/decisions.md).
describe("the API reference at /docs in the browser", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];

  beforeAll(async () => {
    stack = await startStack(inject("dashboardDir"));
    browser = await launchBrowser();
    page = await browser.newPage();
    const origin = new URL(stack.serverUrl).origin;
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin)
        elsewhere.push(url);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("renders the reference with no Ask AI, MCP, client link, share or deploy, and calls nobody else", async () => {
    await page.goto(`${stack.serverUrl}/docs`);
    // The reference has rendered: its sidebar lists the operations of the OpenAPI document.
    await page.getByText("Issue a sign-in nonce").first().waitFor();
    for (const label of ["Ask AI", "Generate MCP", "Open API Client", "Deploy", "Share", "Configure"]) {
      expect(await page.getByText(label, { exact: true }).count(), label).toBe(0);
      // Exact: a response's description ("suspended by this deployment") names a button "...Deploy...".
      expect(await page.getByRole("button", { name: label, exact: true }).count(), label).toBe(0);
    }
    expect(elsewhere).toEqual([]);
  });
});
