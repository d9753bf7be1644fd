import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, NO_PROBLEMS, openSession, watchPage } from "./support/browser.js";
import { signIn } from "./support/flows.js";
import { seriousAxeViolations } from "./support/page-checks.js";
import { type Stack, startStack } from "./support/stack.js";

describe("when something is missing or down, the page says so", () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack(inject("dashboardDir"));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("without a browser wallet, the sign-in screen says how to get one", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchPage(page, stack.origin);
    await page.goto(stack.origin);
    await page
      .getByRole("alert")
      .getByText(/No browser wallet found/)
      .waitFor();
    expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual(NO_PROBLEMS);
    await context.close();
  });

  // Last in this file: the server stays down.
  it("with the Keyport server down, a signed-in page explains it and offers to try again", async () => {
    const { page, problems } = await openSession(browser, stack.origin);
    await page.goto(stack.origin);
    await signIn(page);
    await stack.stopServer();
    await page.reload();
    const alert = page.getByRole("alert");
    await alert.getByText("The Keyport server is not answering right now. Try again in a moment.").waitFor();
    await alert.getByRole("button", { name: "Try again" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The browser itself logs each failed answer (502 from the proxy); nothing else may reach the console.
    expect(problems.consoleErrors.filter((line) => !/status of 502/.test(line))).toEqual([]);
    expect({ ...problems, consoleErrors: [] }).toEqual(NO_PROBLEMS);
  });
});
