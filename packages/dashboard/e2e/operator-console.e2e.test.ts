import { randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { openSession, type PageProblems } from "./support/browser.js";
import { closeSecret, createKey, signIn, verifyOverRest } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import { type Suite, useDashboardSuite } from "./support/suite.js";

// `E2E_SCREENSHOT_DIR=/some/folder` also writes pictures of each console page at 1280 and 390 px.
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const CSV_HEADER =
  "settled_at,kind,wallet,key_id,payer,amount,asset,network,credits,plan_id,days,transaction";
const BASE_USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";

const operatorKey = generatePrivateKey();
const operator = privateKeyToAccount(operatorKey);
const partnerKey = generatePrivateKey();
const partner = privateKeyToAccount(partnerKey);

/** axe finds nothing serious, and at 390 px nothing scrolls sideways; a picture of it when asked. */
async function checkPage(page: Page, name: string, width: number): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  if (SCREENSHOT_DIR !== undefined) {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/operator-${name}-${width}.png`, fullPage: true });
    // The top of the page at its real size, for a long page's picture that a viewer would shrink.
    await page.screenshot({
      path: `${SCREENSHOT_DIR}/operator-${name}-${width}-top.png`,
      fullPage: true,
      clip: { x: 0, y: 0, width, height: 1400 },
    });
  }
}

/** Takes the expected refusals of `status` out of the page's console errors; returns them. */
function forgetRefusals(problems: PageProblems, status: number): string[] {
  const refused = problems.consoleErrors.filter((line) => line.includes(`status of ${status}`));
  const kept = problems.consoleErrors.filter((line) => !line.includes(`status of ${status}`));
  problems.consoleErrors.splice(0, problems.consoleErrors.length, ...kept);
  return refused;
}

/**
 * Suspend's confirmation names the wallet and asks why; `operator.wallets.suspend` is not on this server
 * yet, so the proxy refuses the call (404) and the dialog says so.
 */
async function suspendUpToSubmission(suite: Suite): Promise<void> {
  const { page } = suite.session;
  await page.getByRole("button", { name: "Suspend", exact: true }).click();
  const suspend = page.getByRole("dialog", { name: `Suspend wallet ${partner.address}?` });
  await suspend.getByRole("button", { name: "Suspend wallet" }).click();
  await suspend.getByText("Say why: the reason is recorded with the action.").waitFor();
  await suspend.getByRole("textbox", { name: "Reason" }).fill("Abuse report");
  await suspend.getByRole("button", { name: "Suspend wallet" }).click();
  await suspend.getByRole("alert").waitFor();
  await suspend.getByRole("button", { name: "Cancel" }).click();
  await suspend.waitFor({ state: "hidden" });
  expect(forgetRefusals(suite.session.problems, 404)).toEqual([
    expect.stringContaining("/trpc/operator.wallets.suspend"),
  ]);
}

/** Opens a console page from its own navigation and waits for its heading. */
async function openConsolePage(page: Page, link: string, heading: string | RegExp): Promise<void> {
  await page.getByRole("navigation", { name: "Operator console" }).getByRole("link", { name: link }).click();
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

/** A payment settled a day ago, as a top-up leaves it (the stack's payments are off: nothing else makes one). */
async function seedPayment(suite: Suite): Promise<void> {
  const at = new Date(Date.now() - 12 * 3_600_000).toISOString();
  await suite.stack.query(
    `INSERT INTO payments (network, asset, payer, nonce, signature_hash, key_id, credits_id, wallet, amount,
       base_units, credits, valid_before, status, transaction, locked_until, created_at, updated_at)
     VALUES ('eip155:8453', $1, $2, $3, $4, 'key_seeded000000000000', 'key_seeded000000000000', $5, '5',
       5000000, 5000, $6, 'credited', $7, $6, $6, $6)`,
    [
      BASE_USDC,
      partner.address.toLowerCase(),
      `0x${randomBytes(32).toString("hex")}`,
      randomBytes(32).toString("hex"),
      partner.address,
      at,
      `0x${randomBytes(32).toString("hex")}`,
    ],
  );
}

/** Every console task, at the page's current width; `tag` keeps the names of this round's key and token apart. */
async function consoleTasks(suite: Suite, width: number): Promise<void> {
  const { page } = suite.session;
  const tag = String(width);

  // Overview: revenue, verifications, active wallets, the last 24 h.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Operator" }).click();
  await page.getByRole("heading", { level: 1, name: "Operator overview" }).waitFor();
  await page.getByRole("heading", { name: "Revenue by day" }).waitFor();
  await page.getByRole("img", { name: /^Revenue per day/ }).waitFor();
  await page.getByRole("img", { name: /^Verifications per day/ }).waitFor();
  await page.getByText("5000000 base units of").first().waitFor();
  const active = page.getByRole("region", { name: "Active wallets" });
  await active.getByText(/signed in, created a key or verified one/).waitFor();
  expect(Number(await active.locator(".stat-value").textContent())).toBeGreaterThanOrEqual(2);
  await checkPage(page, "overview", width);

  // Wallets: search by the start of an address (kept in the URL), then open one.
  await openConsolePage(page, "Wallets", "Wallets");
  const prefix = partner.address.slice(0, 8).toLowerCase();
  await page.getByRole("searchbox", { name: "Search wallets" }).fill(prefix);
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(prefix);
  const table = page.getByRole("table", { name: "Wallets" });
  await table.getByRole("link", { name: partner.address }).waitFor();
  // The previous page stays on screen until the search's answer replaces it.
  await expect.poll(() => table.getByRole("link", { name: operator.address }).count()).toBe(0);
  await page.getByRole("combobox", { name: "Sort by" }).selectOption("activeKeys");
  await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("activeKeys");
  await checkPage(page, "wallets", width);
  await table.getByRole("link", { name: partner.address }).click();
  await page.getByRole("heading", { level: 1, name: new RegExp(`^Wallet ${partner.address}`) }).waitFor();
  const keys = page.getByRole("table", { name: "Keys" });
  await keys.getByText("partner-key").waitFor();

  // Issue a key: the owner's form, the secret once.
  await page.getByRole("button", { name: "Issue key" }).click();
  const issue = page.getByRole("dialog", { name: `Issue a key to ${partner.address}` });
  await issue.getByRole("textbox", { name: "Name" }).fill(`issued-${tag}`);
  await issue.getByRole("textbox", { name: "Reason (optional)" }).fill("Partner deal");
  await issue.getByRole("button", { name: "Issue key" }).click();
  const reveal = page.getByRole("dialog", { name: `The new key of ${partner.address}` });
  const secret = (await reveal.locator("code").first().textContent()) ?? "";
  expect(secret).toMatch(/^kp_/);
  await closeSecret(reveal);
  await page.getByText(`Key “issued-${tag}” issued to ${partner.address}.`).waitFor();
  expect(await page.content()).not.toContain(secret);
  expect((await verifyOverRest(suite.stack.serverUrl, secret)).valid).toBe(true);

  // Revoke it: the confirmation names the key and the wallet and needs a reason.
  await keys.getByRole("button", { name: `Revoke “issued-${tag}”` }).click();
  const revoke = page.getByRole("dialog", { name: `Revoke “issued-${tag}” of wallet ${partner.address}?` });
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await revoke.getByText("Say why: the reason is recorded with the action.").waitFor();
  await revoke.getByRole("textbox", { name: "Reason" }).fill("Deal ended");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await page.getByText(`Key “issued-${tag}” of ${partner.address} revoked.`).waitFor();
  await expect.poll(async () => (await verifyOverRest(suite.stack.serverUrl, secret)).valid).toBe(false);
  await checkPage(page, "wallet", width);

  await suspendUpToSubmission(suite);

  // Tokens: create one (the secret once), use it, revoke it.
  await openConsolePage(page, "Tokens", "Operator tokens");
  await page.getByRole("button", { name: "Create token" }).click();
  const create = page.getByRole("dialog", { name: "Create token" });
  await create.getByRole("button", { name: "Create token" }).click();
  await create.getByText("Choose one scope at least.").waitFor();
  await create.getByRole("textbox", { name: "Name" }).fill(`ci-${tag}`);
  await create.getByRole("checkbox", { name: /^Read usage/ }).check();
  await create.getByRole("button", { name: "Create token" }).click();
  const tokenReveal = page.getByRole("dialog", { name: "Your new token" });
  const token = (await tokenReveal.locator("code.secret-value").textContent()) ?? "";
  expect(token).toMatch(/^kpo_/);
  await closeSecret(tokenReveal);
  expect(await page.content()).not.toContain(token);
  const tokens = page.getByRole("table", { name: "Operator tokens" });
  const row = tokens.getByRole("row").filter({ hasText: `ci-${tag}` });
  await row.getByText("usage:read").waitFor();
  const usage = () =>
    fetch(`${suite.stack.serverUrl}/operator/usage`, { headers: { authorization: `Bearer ${token}` } });
  expect((await usage()).status).toBe(200);
  await checkPage(page, "tokens", width);
  await row.getByRole("button", { name: `Revoke token “ci-${tag}”` }).click();
  await page
    .getByRole("dialog", { name: `Revoke token “ci-${tag}”?` })
    .getByRole("button", { name: "Revoke token" })
    .click();
  await page.getByText(`Token “ci-${tag}” revoked.`).waitFor();
  await row.getByText("Revoked").waitFor();
  expect((await usage()).status).toBe(401);

  // Payments: the seeded one, and Export CSV through the proxy.
  await openConsolePage(page, "Payments", "Payments");
  const paid = page
    .getByRole("table", { name: "Every payment" })
    .getByRole("row")
    .filter({ hasText: "5,000" });
  await paid.waitFor();
  expect(await paid.getByRole("link").getAttribute("href")).toBe(`/operator/wallets/${partner.address}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(new URL(download.url()).pathname).toBe("/api/operator/payments.csv");
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe(CSV_HEADER);
  expect(lines[1]).toContain(BASE_USDC);
  await checkPage(page, "payments", width);

  // Audit: the operator trail, then one wallet's.
  await openConsolePage(page, "Audit", "Operator audit");
  const trail = page.locator("ol.events");
  await trail.getByText("Token revoked").first().waitFor();
  await trail.getByText("Key revoked").first().waitFor();
  await page.getByRole("textbox", { name: "Wallet" }).fill(partner.address);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("wallet")).toBe(partner.address);
  await trail.getByText("Key issued").first().waitFor();
  await trail.getByText("Deal ended").first().waitFor();
  expect(await trail.getByText("Token created").count()).toBe(0);
  await checkPage(page, "audit", width);
}

describe("the operator console: an operator does every task at 1280 and 390 px", () => {
  let suite: Suite;
  useDashboardSuite(
    {
      signIn: true,
      viewport: DESKTOP,
      wallet: { privateKey: operatorKey },
      serverEnv: { OPERATOR_WALLETS: operator.address },
      prepare: async (opened) => {
        // A partner wallet with a key of its own, and a payment from it.
        const other = await openSession(opened.browser, opened.stack.origin, DESKTOP, {
          privateKey: partnerKey,
        });
        await other.page.goto(opened.stack.origin);
        await signIn(other.page);
        const key = await createKey(other.page, "partner-key");
        await verifyOverRest(opened.stack.serverUrl, key);
        await other.context.close();
        await seedPayment(opened);
      },
    },
    (opened) => {
      suite = opened;
    },
  );

  it("at 1280 px: overview, wallets, a wallet's keys issued, revoked, suspended; tokens; payments and CSV; audit", async () => {
    await consoleTasks(suite, DESKTOP.width);
  });

  it("at 390 px: the same tasks, nothing scrolling sideways", async () => {
    const { page } = suite.session;
    await page.setViewportSize(PHONE);
    await page.goto(`${suite.stack.origin}/keys`);
    await page.getByRole("heading", { level: 1, name: "Keys" }).waitFor();
    await consoleTasks(suite, PHONE.width);
  });

  it("reaches every page by URL, and an unknown console path reads Page not found", async () => {
    const { page } = suite.session;
    await page.setViewportSize(DESKTOP);
    for (const [path, heading] of [
      ["/operator", "Operator overview"],
      ["/operator/wallets?q=zz", "Wallets"],
      [`/operator/wallets/${partner.address}`, `Wallet ${partner.address}`],
      ["/operator/payments?from=2026-01-01&to=2026-01-31", "Payments"],
      ["/operator/tokens", "Operator tokens"],
      [`/operator/audit?wallet=${partner.address}`, "Operator audit"],
      ["/operator/nothing", "Page not found"],
      [`/operator/wallets/${privateKeyToAccount(generatePrivateKey()).address}`, "Wallet not found"],
    ] as const) {
      await page.goto(`${suite.stack.origin}${path}`);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    }
    // The unknown wallet's read is the server's 404, which the page words as "Wallet not found".
    expect(forgetRefusals(suite.session.problems, 404)).toEqual([
      expect.stringContaining("/trpc/operator.wallets.get"),
    ]);
    await page.goto(`${suite.stack.origin}/operator/wallets?q=zz`);
    await page.getByText("Type the start of an address: hex digits, with or without 0x.").waitFor();
    await page.goto(`${suite.stack.origin}/operator/payments?from=2026-01-01&to=2026-01-31`);
    await page.getByText("No payment was settled in this range.").waitFor();
  });
});

describe("a wallet that is not an operator", () => {
  let suite: Suite;
  const chunkRequests: string[] = [];
  useDashboardSuite(
    {
      signIn: true,
      viewport: DESKTOP,
      prepare: (opened) => {
        opened.session.page.on("request", (request) => {
          if (/\/assets\/operator-[\w-]+\.js$/.test(new URL(request.url()).pathname))
            chunkRequests.push(request.url());
        });
      },
    },
    (opened) => {
      suite = opened;
    },
  );

  it("sees no Operator link, gets Page not found at /operator, and never loads the console's chunk", async () => {
    const { page } = suite.session;
    await page.getByRole("heading", { level: 1, name: "Keys" }).waitFor();
    expect(await page.getByRole("link", { name: "Operator" }).count()).toBe(0);
    for (const path of ["/operator", "/operator/wallets", "/operator/tokens"]) {
      await page.goto(`${suite.stack.origin}${path}`);
      await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    }
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
    expect(chunkRequests).toEqual([]);
  });
});
