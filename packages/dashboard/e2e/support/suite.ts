import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { launchBrowser, NO_PROBLEMS, openSession, type Session } from "./browser.js";
import { signIn } from "./flows.js";
import { type Stack, startStack } from "./stack.js";
import type { TestWalletOptions } from "./test-wallet.js";

/** What {@link useDashboardSuite} opens for the tests of one `describe`. */
export interface Suite {
  stack: Stack;
  browser: Browser;
  session: Session;
}

/** How {@link useDashboardSuite} opens the dashboard. */
export interface SuiteOptions {
  /** Adds to (or overrides) the server's settings. */
  serverEnv?: Record<string, string>;
  /** The session's viewport (openSession's default otherwise). */
  viewport?: { width: number; height: number };
  /** How the session's test wallet starts (openSession's default otherwise). */
  wallet?: TestWalletOptions;
  /** Opens the dashboard and signs in before the first test. */
  signIn?: boolean;
  /** Runs after the session opens and before any sign-in (listeners that must see the first request). */
  prepare?: (suite: Suite) => void | Promise<void>;
}

/**
 * Registers, in the calling `describe`, one stack, one browser and one session shared by its tests,
 * closed after them, and checks after each test that the page met no problem (console errors,
 * uncaught errors, foreign requests, dialogs). `opened` receives them before the first test.
 */
export function useDashboardSuite(options: SuiteOptions, opened: (suite: Suite) => void): void {
  let suite: Suite | undefined;
  beforeAll(async () => {
    const stack = await startStack(inject("dashboardDir"), options.serverEnv);
    const browser = await launchBrowser();
    const session = await openSession(browser, stack.origin, options.viewport, options.wallet);
    suite = { stack, browser, session };
    opened(suite);
    await options.prepare?.(suite);
    if (options.signIn) {
      await session.page.goto(stack.origin);
      await signIn(session.page);
    }
  });
  afterAll(async () => {
    await suite?.browser.close();
    await suite?.stack.close();
  });
  afterEach(() => {
    expect(suite?.session.problems).toEqual(NO_PROBLEMS);
  });
}
