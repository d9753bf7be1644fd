import { createServer, type Server } from "node:net";
import { createApp as createProxyApp, parseEnv as parseProxyEnv, serveApp } from "@keyport/dashboard-proxy";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  endSessionElsewhere,
  launchBrowser,
  NO_PROBLEMS,
  openSession,
  watchPage,
} from "./support/browser.js";
import { signIn } from "./support/flows.js";
import { freePort } from "./support/free-port.js";
import { seriousAxeViolations } from "./support/page-checks.js";
import { type Stack, startStack } from "./support/stack.js";

const PHONE = { width: 390, height: 844 };

async function ask(page: Page, question: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(question);
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
}

/** The browser's own "Failed to load resource" lines for answers the test caused on purpose. */
function withoutStatusLines(lines: string[], status: number): string[] {
  return lines.filter((line) => !line.includes(`status of ${status}`));
}

describe("no dead ends: every failure says what failed and offers the way on", () => {
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

  it("a page opened on 127.0.0.1 while PUBLIC_ORIGIN is localhost renders and links the right address", async () => {
    const elsewhere = stack.origin.replace("localhost", "127.0.0.1");
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const problems = watchPage(page, elsewhere);
      await page.goto(`${elsewhere}/usage?range=7d`);
      const alert = page.getByRole("alert");
      await alert.getByText(/This dashboard is served at/).waitFor();
      const link = alert.getByRole("link", { name: stack.origin }).first();
      expect(await link.getAttribute("href")).toBe(`${stack.origin}/usage?range=7d`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual(NO_PROBLEMS);
      await context.close();
    }
  });

  it("a wallet on Polygon is told which chain signs in, and the switch to Ethereum signs it in", async () => {
    const { page, wallet, problems, context } = await openSession(browser, stack.origin, undefined, {
      chainId: 137,
    });
    await page.goto(stack.origin);
    await page.getByRole("button", { name: "Sign in" }).click();
    const alert = page.getByRole("alert");
    await alert
      .getByText("Your wallet is on Polygon. Keyport signs in on Ethereum only; nothing was signed.")
      .waitFor();
    expect(wallet.signed).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await alert.getByRole("button", { name: "Switch to Ethereum" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.signed[0]).toContain("\nChain ID: 1\n");
    expect(problems).toEqual(NO_PROBLEMS);
    await context.close();
  });

  it("an agent failure names the agent, never reads as stopped, and Retry asks again", async () => {
    const { page, problems, context } = await openSession(browser, stack.origin);
    await page.goto(`${stack.origin}/chat`);
    await signIn(page);
    await page.getByRole("heading", { name: "Chat" }).waitFor();
    stack.agent.behave({ kind: "openai", first: ["Half an"], rest: [" answer"], end: "error" });
    await ask(page, "Will this work?");
    await page.getByText("Half an", { exact: true }).waitFor();
    stack.agent.release();
    const alert = page.getByRole("alert");
    await alert.getByText(/^The chat agent /).waitFor();
    await page.getByText("(incomplete: the chat agent failed)").waitFor();
    expect(await page.getByText("(stopped)").count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    stack.agent.behave({ kind: "openai", first: ["It works now."], rest: [] });
    await alert.getByRole("button", { name: "Try again" }).click();
    stack.agent.release();
    await page.getByText("It works now.", { exact: true }).waitFor();
    await page.getByRole("alert").waitFor({ state: "detached" });
    // The failed answer is replaced, not kept beside the new one.
    expect(await page.locator(".turn-user").count()).toBe(1);
    expect(problems).toEqual(NO_PROBLEMS);
    await context.close();
  });

  it("the chat is kept across navigation for the tab's life, and New chat clears it", async () => {
    const { page, problems, context } = await openSession(browser, stack.origin);
    await page.goto(stack.origin);
    await signIn(page);
    await page.getByRole("link", { name: "Chat" }).click();
    stack.agent.behave({ kind: "openai", first: ["Kept answer."], rest: [] });
    await ask(page, "Remember me");
    stack.agent.release();
    await page.getByText("Kept answer.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });

    await page.getByRole("link", { name: "Keys" }).click();
    await page.getByRole("heading", { name: "Keys" }).waitFor();
    await page.getByRole("link", { name: "Chat" }).click();
    await page.getByText("Kept answer.", { exact: true }).waitFor();
    await page.reload();
    await page.getByText("Remember me", { exact: true }).waitFor();
    await page.setViewportSize(PHONE);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New chat" }).click();
    await page.getByText("Kept answer.", { exact: true }).waitFor({ state: "detached" });
    await page.getByRole("link", { name: "Keys" }).click();
    await page.getByRole("link", { name: "Chat" }).click();
    await page.getByText(/Ask about markets/).waitFor();
    expect(await page.getByText("Remember me").count()).toBe(0);
    expect(problems).toEqual(NO_PROBLEMS);
    await context.close();
  });

  it("a session ended elsewhere says so, and signing in again keeps the half-filled form", async () => {
    const { page, problems, context } = await openSession(browser, stack.origin);
    await page.goto(stack.origin);
    await signIn(page);
    await page.getByRole("button", { name: "Create key" }).click();
    const create = page.getByRole("dialog", { name: "Create key" });
    await create.getByRole("textbox", { name: "Name" }).fill("half-typed key");

    // Signed out from elsewhere: the server ends the session the browser still holds.
    expect(await endSessionElsewhere(stack.serverUrl, context)).toBe(200);

    await create.getByRole("button", { name: "Create" }).click();
    const ended = page.getByRole("dialog", { name: "Your session ended" });
    await ended.getByText(/expired or was signed out from elsewhere/).waitFor();
    // The refused create's answer sits under the form, behind the dialog.
    // In the page's words: the server's own ("A valid session token is required") would only confuse.
    const staleError = create.getByText("Your session ended: sign in again to carry on.");
    await staleError.waitFor();
    expect(await page.getByText("A valid session token is required", { exact: false }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await ended.getByRole("button", { name: "Sign in" }).click();
    await ended.waitFor({ state: "hidden" });

    // Signed in again: the form is as it was, without the ended session's error under it.
    expect(await create.getByRole("textbox", { name: "Name" }).inputValue()).toBe("half-typed key");
    await staleError.waitFor({ state: "detached" });
    expect(await create.getByRole("alert").count()).toBe(0);
    await create.getByRole("button", { name: "Create" }).click();
    await page.getByRole("dialog", { name: "Your new key" }).getByRole("button", { name: "Done" }).click();
    await page.getByRole("table").getByText("half-typed key", { exact: true }).waitFor();
    // The refused create and the refused list refresh are the browser's own 401 lines.
    expect(withoutStatusLines(problems.consoleErrors, 401)).toEqual([]);
    expect({ ...problems, consoleErrors: [] }).toEqual(NO_PROBLEMS);
    await context.close();
  });

  it("a planted second session cookie is shown as what it is, with the way out", async () => {
    const { page, problems, context } = await openSession(browser, stack.origin);
    await page.goto(stack.origin);
    await signIn(page);
    // Another page of the host planted a cookie of the same name on a narrower path (cookie tossing).
    await context.addCookies([
      { name: "keyport_session", value: "planted", domain: "localhost", path: "/api", httpOnly: true },
    ]);
    await page.reload();
    await page
      .getByRole("alert")
      .getByText(/more than one session cookie; clear this site's cookies and sign in again/)
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(withoutStatusLines(problems.consoleErrors, 400)).toEqual([]);
    expect({ ...problems, consoleErrors: [] }).toEqual(NO_PROBLEMS);
    await context.close();
  });

  // Last in this file: the stand-in stays down.
  it("a market outage names the market data provider and offers to try again", async () => {
    const { page, problems, context } = await openSession(browser, stack.origin);
    await page.goto(stack.origin);
    await signIn(page);
    await stack.markets.close();
    await page.getByRole("link", { name: "Markets" }).click();
    const alert = page.getByRole("alert");
    await alert.getByText(/^The market data provider \(CoinGecko\) /).waitFor();
    await alert.getByRole("button", { name: "Try again" }).waitFor();
    expect(await alert.textContent()).not.toContain("Keyport server");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(withoutStatusLines(problems.consoleErrors, 502)).toEqual([]);
    expect({ ...problems, consoleErrors: [] }).toEqual(NO_PROBLEMS);
    await context.close();
  });
});

describe("a hung Keyport server", () => {
  let hung: Server;
  const requests: string[] = [];
  let proxy: ReturnType<typeof serveApp>;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    // Accepts connections and reads requests, never answers.
    hung = createServer((socket) => {
      socket.on("data", (data) => {
        const line = data.toString("latin1").split("\r\n")[0];
        if (line) requests.push(line);
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const address = hung.address();
    const hungPort = typeof address === "object" && address !== null ? address.port : 0;
    const port = await freePort();
    origin = `http://localhost:${port}`;
    proxy = serveApp(
      createProxyApp(
        parseProxyEnv({
          KEYPORT_URL: `http://127.0.0.1:${hungPort}`,
          KEYPORT_TIMEOUT_MS: "1500",
          PUBLIC_ORIGIN: origin,
          DASHBOARD_DIR: inject("dashboardDir"),
          COINGECKO_STARTUP_CHECK: "off",
          LOG_LEVEL: "silent",
        }),
      ),
      { port, hostname: "127.0.0.1", silent: true, gracefulShutdown: false },
    );
    await proxy.ready();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close(true);
    await new Promise<void>((resolve) => hung?.close(() => resolve()));
  });

  it("is reported after one timeout, naming the Keyport server, with Try again", async () => {
    const context = await browser.newContext();
    // A page that believes it is signed in asks the server who it is first.
    await context.addCookies([
      { name: "keyport_signed_in", value: "1", url: origin },
      { name: "keyport_session", value: "a-session-the-hung-server-never-checks", url: origin },
    ]);
    const page = await context.newPage();
    const problems = watchPage(page, origin);
    await page.goto(origin);
    const alert = page.getByRole("alert");
    await alert.getByText("The Keyport server did not answer in time. Try again in a moment.").waitFor();
    await alert.getByRole("button", { name: "Try again" }).waitFor();
    // One wait, not two: the page asked the server once.
    expect(requests.filter((line) => line.includes("/auth/session"))).toHaveLength(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(withoutStatusLines(problems.consoleErrors, 504)).toEqual([]);
    expect({ ...problems, consoleErrors: [] }).toEqual(NO_PROBLEMS);
    await context.close();
  });
});
