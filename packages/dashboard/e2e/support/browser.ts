import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { installTestWallet, type TestWallet, type TestWalletOptions } from "./test-wallet.js";

/** Debian's Chromium (`apt-get install -y chromium`); Playwright's own browser download is not used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Launches headless Chromium. Playwright gives each launch a fresh temporary profile; the flags keep the
 * browser from calling home (updates, sync, field trials), so every request seen comes from the page.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** What a page did that the budgets forbid; every test expects all of it empty at the end. */
export interface PageProblems {
  /** `console.error` lines, including Chromium's own "Failed to load resource" lines. */
  consoleErrors: string[];
  /** Uncaught exceptions and unhandled rejections. */
  pageErrors: string[];
  /** Requests to any origin other than the dashboard's (data: and blob: URLs stay in the page). */
  foreignRequests: string[];
  /** alert/confirm/prompt dialogs (none is expected; they are dismissed). */
  dialogs: string[];
}

/** What every test expects of its page at the end. */
export const NO_PROBLEMS: PageProblems = {
  consoleErrors: [],
  pageErrors: [],
  foreignRequests: [],
  dialogs: [],
};

/** A browser context with the test wallet and a page whose problems are recorded. */
export interface Session {
  context: BrowserContext;
  page: Page;
  wallet: TestWallet;
  problems: PageProblems;
}

/** Opens a new context (its own cookies and storage) at `viewport`, with the test wallet installed. */
export async function openSession(
  browser: Browser,
  origin: string,
  viewport = { width: 1280, height: 800 },
  walletOptions: TestWalletOptions = {},
): Promise<Session> {
  // A fixed locale and time zone: prices and dates read the same on every machine.
  const context = await browser.newContext({
    viewport,
    locale: "en-US",
    timezoneId: "UTC",
    serviceWorkers: "block",
  });
  // Bounds for a busy machine; a passing step takes well under a second.
  context.setDefaultTimeout(15_000);
  const wallet = await installTestWallet(context, walletOptions);
  const page = await context.newPage();
  return { context, page, wallet, problems: watchPage(page, origin) };
}

/** Records what `page` does that the budgets forbid (console errors, uncaught errors, foreign requests, dialogs). */
export function watchPage(page: Page, origin: string): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], foreignRequests: [], dialogs: [] };
  page.on("console", (message) => {
    if (message.type() === "error")
      problems.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return;
    if (new URL(url).origin !== origin) problems.foreignRequests.push(`${request.method()} ${url}`);
  });
  page.on("dialog", (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}

/** The session cookie's value as the browser holds it (httpOnly: page scripts cannot read it). */
export async function sessionToken(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  return cookies.find((cookie) => cookie.name === "keyport_session")?.value;
}

/**
 * Signs the browser's session out from elsewhere (`POST /auth/logout` with its token, as another tab
 * or device would): the server ends the session the browser still holds. Resolves with the status.
 * @example expect(await endSessionElsewhere(stack.serverUrl, context)).toBe(200);
 */
export async function endSessionElsewhere(serverUrl: string, context: BrowserContext): Promise<number> {
  const response = await fetch(`${serverUrl}/auth/logout`, {
    method: "POST",
    headers: { authorization: `Bearer ${await sessionToken(context)}` },
  });
  return response.status;
}
