import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type Session, sessionToken } from "./support/browser.js";
import { verifyOverRest } from "./support/flows.js";
import { horizontalOverflow } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// `E2E_SCREENSHOT_DIR=/some/folder` also writes pictures of the keys list at 1280 and 390 px.
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR;

// Payments on (Top up shown): no payment is made here, so the chain and the facilitator are never asked.
const PAYMENTS = {
  PAYMENTS_NETWORK: "eip155:84532",
  PAYMENTS_RPC_URL: "http://127.0.0.1:9",
  PAYMENTS_ASSET: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  PAYMENTS_PAY_TO: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  PAYMENTS_FACILITATOR_URL: "http://127.0.0.1:9",
};

// Not resolvable yet, which the server accepts (it checks the address at each send); nothing is sent here.
const ENDPOINT_URL =
  "https://hooks.billing-backend.example/keyport/webhooks/production-eu-west/receive-events?tenant=acme-corporation";

/**
 * The places where a line wraps inside each element matching `selector`: the character before each
 * break, and the text of the line it ends. A break after a letter or digit is a word broken in two.
 */
function lineBreaks(page: Page, selector: string): Promise<Array<{ before: string; line: string }>> {
  return page.evaluate((css) => {
    const breaks: Array<{ before: string; line: string }> = [];
    for (const element of document.querySelectorAll(css)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let previousTop: number | undefined;
      let previousChar = "";
      let line = "";
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getBoundingClientRect();
          if (rect.width === 0 && rect.height === 0) continue;
          if (previousTop !== undefined && rect.top > previousTop + 2) {
            breaks.push({ before: previousChar, line });
            line = "";
          }
          previousTop = rect.top;
          previousChar = text.charAt(i);
          line += previousChar;
        }
      }
    }
    return breaks;
  }, selector);
}

async function picture(page: Page, name: string): Promise<void> {
  if (SCREENSHOT_DIR !== undefined)
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

describe("the keys list's layout and the dialogs' focus", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({ serverEnv: PAYMENTS, signIn: true }, (opened) => ({ stack, session } = opened));

  const createOverRest = async (body: Record<string, unknown>) => {
    const token = await sessionToken(session.context);
    const answer = await fetch(`${stack.serverUrl}/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await answer.json()) as { key: string; apiKey: { id: string } };
  };

  it("keeps Top up, Edit, Roll and Revoke of every row in view at 1280 px, leak notes included", async () => {
    const { page } = session;
    await createOverRest({ name: "metered-billing-backend-production", credits: { remaining: 500 } });
    await createOverRest({ name: "plain" });
    const leaked = await createOverRest({ name: "pasted in an issue" });
    await createOverRest({ name: "metered with a leak beside it", credits: { remaining: 5 } });
    // A leak note with a long URL in the list: reported by a scanner would carry one; the self-report carries none.
    const token = await sessionToken(session.context);
    const reported = await fetch(`${stack.serverUrl}/api-keys/report-leak`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: leaked.key }),
    });
    expect(reported.status).toBe(202);
    expect(token).not.toBe("");

    await page.setViewportSize(DESKTOP);
    await page.goto(`${stack.origin}/keys`);
    await page.getByText("Revoked: reported by its holder").waitFor();
    await picture(page, "keys-1280");
    const table = page.getByRole("region", { name: "API keys" });
    expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(
      0,
    );
    for (const name of ["metered-billing-backend-production", "metered with a leak beside it"]) {
      const row = page.getByRole("row", { name: new RegExp(name) });
      for (const action of ["Top up", "Edit", "Roll", "Revoke"]) {
        const box = await row.getByRole("button", { name: action, exact: true }).boundingBox();
        expect(box, `${name}: ${action}`).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), `${name}: ${action}`).toBeLessThanOrEqual(DESKTOP.width);
      }
    }
  });

  it("at 390 px breaks neither a badge nor a URL in the middle of a word", async () => {
    const { page } = session;
    await page.setViewportSize(PHONE);
    await page.goto(`${stack.origin}/keys`);
    await page.getByText("Revoked: reported by its holder").waitFor();
    await picture(page, "keys-390");
    expect(await lineBreaks(page, ".badge")).toEqual([]);

    const created = await page.evaluate(async (url) => {
      const session = (await (await fetch("/api/session")).json()) as { wallet: string };
      const answer = await fetch("/trpc/webhooks.create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: { wallet: session.wallet, url, events: ["key.created"] } }),
      });
      return answer.status;
    }, ENDPOINT_URL);
    expect(created).toBe(200);
    for (const [path, ready] of [
      ["/webhooks", ".webhook-url"],
      ["/activity", ".event-changes dd"],
    ] as const) {
      await page.goto(`${stack.origin}${path}`);
      await page.locator(ready).first().waitFor();
      await picture(page, `${path.slice(1)}-390`);
      expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
      expect(await lineBreaks(page, ".badge"), path).toEqual([]);
      const wordBreaks = (await lineBreaks(page, ".webhook-url, .event-changes dd")).filter(({ before }) =>
        /[A-Za-z0-9]/.test(before),
      );
      expect(wordBreaks, path).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);
  });

  it("focuses Copy beside a new key's secret, and gives focus back to Create key after", async () => {
    const { page } = session;
    await page.goto(`${stack.origin}/keys`);
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("focus check");
    await dialog.getByRole("button", { name: "Create" }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    const copy = reveal.getByRole("button", { name: "Copy", exact: true });
    await expect.poll(() => copy.evaluate((button) => button === document.activeElement)).toBe(true);
    await reveal.getByRole("button", { name: "Done" }).click();
    await reveal.getByRole("button", { name: "Close without copying" }).click();
    await reveal.waitFor({ state: "hidden" });
    const create = page.getByRole("button", { name: "Create key" });
    await expect.poll(() => create.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  it("after Revoke, whose button goes with the key, gives focus to the key's name in its row", async () => {
    const { page } = session;
    await page.goto(`${stack.origin}/keys`);
    const row = page.getByRole("row", { name: /^plain / });
    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke “plain”?" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await confirm.waitFor({ state: "hidden" });
    await row.getByRole("button", { name: "Revoke", exact: true }).waitFor({ state: "detached" });
    const link = row.getByRole("link", { name: "plain", exact: true });
    await expect.poll(() => link.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it("reports a key as leaked from its page: revoked, marked as reported by its holder, focus on the heading", async () => {
    const { page } = session;
    const { key, apiKey } = await createOverRest({ name: "found in a gist" });
    await page.goto(`${stack.origin}/keys/${apiKey.id}`);
    await page.getByRole("button", { name: "Report leaked" }).click();
    const dialog = page.getByRole("dialog", { name: "Report “found in a gist” as leaked?" });
    await dialog.getByRole("textbox", { name: "The leaked key" }).fill(key);
    await dialog.getByRole("button", { name: "Report and revoke" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByText("Revoked: reported by its holder").first().waitFor();
    expect(await verifyOverRest(stack.serverUrl, key)).toMatchObject({ code: "REVOKED" });
    const heading = page.getByRole("heading", { level: 1, name: /found in a gist/ });
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
  });
});
