import type { Page } from "playwright-core";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { openSession, type Session, sessionToken } from "./support/browser.js";
import { signIn } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import { type Suite, useDashboardSuite } from "./support/suite.js";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The sessions table's rows (one per session; at 390 px each is a card). */
const sessionRows = (page: Page) => page.getByRole("table", { name: "Sessions" }).locator("tbody tr");

/** The other browser's next request is refused: its page says the session ended, and its cookie gets 401. */
async function expectEnded(other: Session, serverUrl: string, via: string): Promise<void> {
  const token = await sessionToken(other.context);
  await other.page.getByRole("link", { name: via }).click();
  await other.page.getByRole("dialog", { name: "Your session ended" }).waitFor();
  const answer = await fetch(`${serverUrl}/auth/session`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(401);
}

describe("sessions: a wallet's sign-ins listed, one ended, every other ended", () => {
  const privateKey = generatePrivateKey();
  let suite: Suite;
  useDashboardSuite({ signIn: true, viewport: DESKTOP, wallet: { privateKey } }, (opened) => {
    suite = opened;
  });

  it("lists both browsers' sessions, ends the second, then signs out every other session", async () => {
    const { page } = suite.session;
    const second = await openSession(suite.browser, suite.stack.origin, DESKTOP, { privateKey });
    await second.page.goto(suite.stack.origin);
    await signIn(second.page);
    expect(second.wallet.address).toBe(suite.session.wallet.address);

    await page.getByRole("link", { name: "Sessions" }).click();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    await expect.poll(() => sessionRows(page).count()).toBe(2);
    const current = sessionRows(page).filter({ hasText: "This session" });
    expect(await current.count()).toBe(1);
    await current.getByText("Chrome on Linux").waitFor();
    expect(await current.getByRole("button", { name: /^Sign out / }).count()).toBe(0);
    await page.getByRole("table", { name: "Sessions" }).getByText("just now").first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);

    // One "Sign out" per other session, named after it.
    const endSecond = page.getByRole("button", { name: /^Sign out Chrome on Linux \(.+\), signed in / });
    expect(await endSecond.count()).toBe(1);
    await endSecond.click();
    await page.getByText("Signed out Chrome on Linux.").waitFor();
    await expect.poll(() => sessionRows(page).count()).toBe(1);
    await expectEnded(second, suite.stack.serverUrl, "Activity");

    // The second browser signs in again from the dialog; "Sign out other sessions" ends it once more.
    const dialog = second.page.getByRole("dialog", { name: "Your session ended" });
    await dialog.getByRole("button", { name: "Sign in" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.reload();
    await expect.poll(() => sessionRows(page).count()).toBe(2);
    await page.getByRole("button", { name: "Sign out other sessions" }).click();
    await page.getByText("Signed out 1 other session.").waitFor();
    await expect.poll(() => sessionRows(page).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Sign out other sessions" }).isDisabled()).toBe(true);
    await expectEnded(second, suite.stack.serverUrl, "Keys");
    expect(second.problems.pageErrors).toEqual([]);
    expect(second.problems.foreignRequests).toEqual([]);
    await second.context.close();

    // This browser's own session was kept throughout.
    await page.getByRole("link", { name: "Keys" }).click();
    await page.getByRole("heading", { name: "Keys" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
