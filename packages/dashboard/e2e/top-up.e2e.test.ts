import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { deployTestUsdc, TEST_USDC_UNIT, type TestUsdc } from "@keyport/test-support/test-usdc";
import type { Page } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { NO_PROBLEMS, type Session, sessionToken } from "./support/browser.js";
import { signIn } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const createdKey = z.object({ apiKey: z.object({ id: z.string() }) });

/** The current step's name each time it changes, recorded in the page (a step may last a few ms). */
async function recordSteps(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    Reflect.set(window, "__topUpSteps", seen);
    new MutationObserver(() => {
      const current = document.querySelector('[aria-current="step"]')?.textContent ?? null;
      if (current !== null && seen[seen.length - 1] !== current) seen.push(current);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

function recordedSteps(page: Page): Promise<unknown> {
  return page.evaluate(() => Reflect.get(window, "__topUpSteps"));
}

// The payer's wallet starts on Ethereum (where it signs in) and holds 20 test USDC on the local chain,
// where Keyport settles in-process from a settler account of its own.
describe("topping up a key from the dashboard with the wallet's USDC", () => {
  let anvil: Anvil;
  let usdc: TestUsdc;
  let stack: Stack;
  let session: Session;
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey).address;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const serverEnv: Record<string, string> = {};
  const wallet: { privateKey: `0x${string}`; rpcUrl?: string } = { privateKey: payerKey };
  let keyId = "";

  beforeAll(async () => {
    anvil = await startAnvil();
    usdc = await deployTestUsdc(anvil.url);
    const settlerKey = generatePrivateKey();
    await usdc.fundEther(privateKeyToAccount(settlerKey).address);
    await usdc.mint(payer, 20n * TEST_USDC_UNIT);
    wallet.rpcUrl = anvil.url;
    Object.assign(serverEnv, {
      PAYMENTS_NETWORK: usdc.network,
      PAYMENTS_RPC_URL: anvil.url,
      PAYMENTS_ASSET: usdc.address,
      PAYMENTS_PAY_TO: payTo,
      PAYMENTS_SETTLER_PRIVATE_KEY: settlerKey,
    });
  });
  afterAll(async () => {
    await anvil?.close();
  });

  useDashboardSuite({ serverEnv, wallet }, (opened) => ({ stack, session } = opened));

  async function openTopUp(amount: string) {
    const { page } = session;
    await page.getByRole("button", { name: "Top up" }).click();
    const dialog = page.getByRole("dialog", { name: "Top up “metered”" });
    await dialog.getByRole("textbox", { name: "Amount (USDC)" }).fill(amount);
    await dialog.getByText(`Buys ${(Number(amount) * 1000).toLocaleString("en-US")} credits.`).waitFor();
    return dialog;
  }

  async function creditsShown(): Promise<string> {
    const details = session.page.locator(".details").first();
    const credits = details
      .locator("div")
      .filter({ has: session.page.getByText("Credits", { exact: true }) });
    return ((await credits.locator("dd").textContent()) ?? "").trim();
  }

  it("offers a wallet on another chain the switch to the payment's chain, signing nothing", async () => {
    const { page, context } = session;
    await page.setViewportSize(DESKTOP);
    await page.goto(stack.origin);
    await signIn(page);
    const created = await fetch(`${stack.serverUrl}/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${await sessionToken(context)}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "metered", credits: { remaining: 100 } }),
    });
    expect(created.status).toBe(201);
    keyId = createdKey.parse(await created.json()).apiKey.id;
    await page.goto(`${stack.origin}/keys/${keyId}`);
    expect(await creditsShown()).toBe("100 credits (0 purchased), no refill");

    const dialog = await openTopUp("5");
    await dialog.getByRole("button", { name: "Pay 5 USDC" }).click();
    const alert = dialog.getByRole("alert");
    await alert
      .getByText("Your wallet is on Ethereum; this payment is made on chain 31337.", { exact: false })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await alert.getByRole("button", { name: "Switch to chain 31337" }).click();
    await alert.waitFor({ state: "detached" });
    expect(session.wallet.signedTypedData).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  it("tops up 5 USDC: Signing, Settling, Confirmed, the new balance, the payer's USDC down by 5, the activity", async () => {
    const { page } = session;
    const before = await usdc.balanceOf(payer);
    const dialog = await openTopUp("5");
    await recordSteps(page);
    await dialog.getByRole("button", { name: "Pay 5 USDC" }).click();
    const confirmed = page.getByRole("dialog", { name: "Top-up confirmed" });
    await confirmed
      .getByText("5,000 credits added for 5 USDC. The key now holds 5,100 credits (5,000 purchased).")
      .waitFor();
    expect(await recordedSteps(page)).toEqual(["Signing", "Settling"]);
    expect(await confirmed.getByRole("list", { name: "Top-up progress" }).textContent()).toBe(
      "Signing (done)Settling (done)Confirmed (done)",
    );
    expect(session.wallet.signedTypedData).toEqual(["TransferWithAuthorization"]);
    expect(await usdc.balanceOf(payer)).toBe(before - 5n * TEST_USDC_UNIT);
    expect(await usdc.balanceOf(payTo)).toBe(5n * TEST_USDC_UNIT);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await confirmed.getByRole("button", { name: "Done" }).click();

    await expect.poll(creditsShown).toBe("5,100 credits (5,000 purchased), no refill");
    const events = page.getByRole("list", { name: "Events of this key, newest first" });
    const event = events.getByRole("listitem").filter({ hasText: "Credits topped up" });
    await event.getByText("5 USDC", { exact: true }).waitFor();
    await event.getByText("5,000", { exact: true }).waitFor();
    // The payer in its one checksummed casing; the transaction whole, with a button that copies it.
    await event.getByText(payer, { exact: true }).waitFor();
    expect(await event.getByText(payer.toLowerCase(), { exact: true }).count()).toBe(0);
    await event.getByRole("button", { name: "Copy transaction hash" }).waitFor();
    expect(await event.locator("dd", { hasText: /^0x[0-9a-f]{64}\b/ }).count()).toBe(1);
    expect(session.problems).toEqual(NO_PROBLEMS);
  });

  it("says so when the wallet declines the signature, and credits and pays nothing", async () => {
    const { page } = session;
    const before = await usdc.balanceOf(payer);
    session.wallet.refuseNextSignature();
    const dialog = await openTopUp("5");
    await dialog.getByRole("button", { name: "Pay 5 USDC" }).click();
    await dialog
      .getByRole("alert")
      .getByText("You declined the signature in your wallet. Nothing was paid.")
      .waitFor();
    expect(await dialog.getByRole("list", { name: "Top-up progress" }).textContent()).toBe(
      "Signing (failed)SettlingConfirmed",
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await creditsShown()).toBe("5,100 credits (5,000 purchased), no refill");
    expect(await usdc.balanceOf(payer)).toBe(before);
    expect(session.wallet.signedTypedData).toEqual(["TransferWithAuthorization"]);
    expect(page.url()).toBe(`${stack.origin}/keys/${keyId}`);
  });

  it("tells a wallet without enough USDC what it holds and what the top-up needs, before any signature", async () => {
    const { page } = session;
    const dialog = await openTopUp("100");
    await dialog.getByRole("button", { name: "Pay 100 USDC" }).click();
    await dialog
      .getByRole("alert")
      .getByText("Your wallet holds 15 USDC; this top-up needs 100 USDC. Nothing was paid.")
      .waitFor();
    expect(session.wallet.signedTypedData).toEqual(["TransferWithAuthorization"]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await creditsShown()).toBe("5,100 credits (5,000 purchased), no refill");
  });

  it("names the server's bounds for an amount outside them, and offers Top up in the key's row", async () => {
    const { page } = session;
    await page.goto(`${stack.origin}/keys`);
    const row = page.getByRole("row", { name: /metered/ });
    await row.getByRole("button", { name: "Top up" }).click();
    const dialog = page.getByRole("dialog", { name: "Top up “metered”" });
    await dialog.getByRole("textbox", { name: "Amount (USDC)" }).fill("5000");
    await dialog.getByText("amount must be between 1 and 1000").waitFor();
    expect(await dialog.getByRole("button", { name: "Pay 5000 USDC" }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    // The quote's 400 is the answer the test asked for: the browser logs it, nothing else may appear.
    const errors = session.problems.consoleErrors.splice(0);
    expect(errors.filter((line) => !line.includes("status of 400"))).toEqual([]);
  });
});
