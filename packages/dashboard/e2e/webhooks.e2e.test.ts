import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endSessionElsewhere, type PageProblems, sessionToken } from "./support/browser.js";
import { closeSecret } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import { type Suite, useDashboardSuite } from "./support/suite.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** axe at 1280 px and at 390 px (where nothing may scroll sideways), back at 1280 px after. */
async function checkBothWidths(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.setViewportSize(DESKTOP);
}

/** Chromium logs a refused request as a console error: drop the ones a test provoked on purpose. */
function forgetRefusals(problems: PageProblems, status: number): void {
  const kept = problems.consoleErrors.filter((line) => !line.includes(`status of ${status}`));
  problems.consoleErrors.splice(0, problems.consoleErrors.length, ...kept);
}

/** The rows of the delivery log (at 1280 px, one per delivery and one per opened response). */
const deliveryRows = (page: Page) => page.getByRole("table", { name: "Deliveries" }).locator("tbody tr");

describe("webhooks: add an endpoint, test it, rotate, disable, enable, edit and delete it", () => {
  let suite: Suite;
  let receiver: WebhookReceiver;
  // The stack's server runs on 127.0.0.1, and so does the receiver: plain http to a loopback address is
  // allowed only with WEBHOOKS_ALLOW_PRIVATE (docs/webhooks.md).
  useDashboardSuite(
    { signIn: true, viewport: DESKTOP, serverEnv: { WEBHOOKS_ALLOW_PRIVATE: "true" } },
    (opened) => {
      suite = opened;
    },
  );
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  // Each step waits on the real server and axe runs six times: a bound for a busy machine, not an expectation.
  it("says what webhooks are for, refuses bad URLs beside the field, then shows the new secret once", {
    timeout: 150_000,
  }, async () => {
    const { page } = suite.session;
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    // The empty list and the empty dialog are checked with axe in views.e2e.test.ts.
    await page.getByText("No endpoints yet.").waitFor();

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    const url = dialog.getByRole("textbox", { name: "Endpoint URL" });

    // The key events come chosen; with none chosen and nothing typed, both fields say so, and focus
    // goes to the first.
    expect(await dialog.getByRole("checkbox", { name: /^Key created/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: /^Credits low/ }).isChecked()).toBe(false);
    await dialog.getByRole("checkbox", { name: "All events" }).check();
    await dialog.getByRole("checkbox", { name: "All events" }).uncheck();
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByText("Enter the URL that receives the events.").waitFor();
    await dialog.getByText("Choose at least one event.").waitFor();
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => url.evaluate((input) => input === document.activeElement)).toBe(true);
    await dialog.getByText("2 fields need a change.").waitFor();
    await checkBothWidths(page);

    await url.fill("not a url");
    await dialog.getByRole("checkbox", { name: "All events" }).check();
    expect(await dialog.getByRole("checkbox", { name: /^Credits low/ }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByText("Enter a full URL, such as https://example.com/webhooks.").waitFor();
    expect(await dialog.getByText("Choose at least one event.").count()).toBe(0);

    // The server's refusal lands under the URL field, not in a corner of the dialog.
    await url.fill("ftp://example.com/hooks");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const refusal = dialog.locator(".field-error").filter({ hasText: "https" });
    await refusal.waitFor();
    expect(await url.getAttribute("aria-describedby")).toContain(await refusal.getAttribute("id"));
    forgetRefusals(suite.session.problems, 400);

    await url.fill(receiver.url);
    await dialog.getByRole("textbox", { name: "Description (optional)" }).fill("billing backend");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const reveal = page.getByRole("dialog", { name: "Your endpoint's signing secret" });
    const secret = (await reveal.locator("code.secret-value").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await reveal.getByRole("link", { name: "Standard Webhooks" }).waitFor();
    await checkBothWidths(page);
    // Until copied, leaving asks first.
    await closeSecret(reveal);
    await page.getByText(`Endpoint ${receiver.url} added.`).waitFor();

    const row = page.getByRole("row", { name: new RegExp(receiver.url.replaceAll("/", "\\/")) });
    await row.getByText("All events").waitFor();
    await row.getByText("Enabled").waitFor();
    await row.getByText("billing backend").waitFor();
    // Shown once: nothing on the list or in the page's HTML holds it any more.
    expect(await page.content()).not.toContain(secret);
    await checkBothWidths(page);
  });

  it("sends a test event that the receiver gets and the log shows delivered, and redelivers it", {
    timeout: 120_000,
  }, async () => {
    const { page } = suite.session;
    await page.getByRole("link", { name: receiver.url }).click();
    await page.getByRole("heading", { name: new RegExp(`^${receiver.url}`), level: 1 }).waitFor();
    await page.getByText("No deliveries yet.").waitFor();

    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText(`Test event sent to ${receiver.url}.`).waitFor();
    await expect.poll(() => deliveryRows(page).count()).toBe(1);
    const row = deliveryRows(page).first();
    // The row's header is the event in words, then its message id.
    await row.getByRole("rowheader", { name: /^Test event/ }).waitFor();
    // The log polls every 2 s while the delivery is pending, and stops once it is settled.
    await row.getByText("Delivered", { exact: true }).waitFor({ timeout: 15_000 });
    await row.getByRole("cell", { name: "200" }).waitFor();
    expect(receiver.received).toHaveLength(1);
    const first = receiver.received[0];
    expect(JSON.parse(first?.body ?? "{}")).toMatchObject({
      type: "webhook.test",
      data: { message: "This is a test event from Keyport" },
    });

    await row.getByRole("button", { name: "Response to Test event, Delivered" }).click();
    await page.getByText("received, thanks").waitFor();
    await checkBothWidths(page);

    await row.getByRole("button", { name: "Redeliver Test event, Delivered" }).click();
    await page.getByText("Redelivery queued: the same message goes out again.").waitFor();
    await expect.poll(() => receiver.received.length).toBe(2);
    // The same message: the same webhook-id on both requests.
    expect(receiver.received[1]?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    await deliveryRows(page).first().getByText("Delivered", { exact: true }).waitFor();
  });

  it("rotates the secret, disables and enables the endpoint, edits it, then deletes it", {
    timeout: 120_000,
  }, async () => {
    const { page } = suite.session;
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const confirm = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await confirm.getByText("The old secret keeps signing for 24 hours", { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Rotate" }).click();
    const reveal = page.getByRole("dialog", { name: "Your endpoint's new signing secret" });
    expect((await reveal.locator("code.secret-value").textContent()) ?? "").toMatch(/^whsec_/);
    await closeSecret(reveal);
    await page.getByText("Secret rotated: the old secret keeps signing for 24 hours.").waitFor();

    await page.getByRole("button", { name: "Disable", exact: true }).click();
    await page.getByText(`Endpoint ${receiver.url} disabled`, { exact: false }).waitFor();
    const title = page.getByRole("heading", { level: 1 });
    await title.getByText("Disabled by you").waitFor();
    expect(await page.getByRole("button", { name: "Send test event" }).isDisabled()).toBe(true);
    await checkBothWidths(page);
    await page.getByRole("button", { name: "Enable", exact: true }).click();
    await page.getByText(`Endpoint ${receiver.url} enabled`, { exact: false }).waitFor();
    await title.getByText("Enabled").waitFor();

    await page.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit endpoint" });
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByText("Nothing changed.").waitFor();
    await edit.getByRole("checkbox", { name: "All events" }).uncheck();
    await edit.getByRole("checkbox", { name: /^Key revoked/ }).check();
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByText(`Endpoint ${receiver.url} saved.`).waitFor();
    await page
      .getByRole("definition")
      .filter({ hasText: /^Key revoked$/ })
      .waitFor();

    await page.getByRole("button", { name: "Delete" }).click();
    await page
      .getByRole("dialog", { name: "Delete this endpoint?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByText(`Endpoint ${receiver.url} deleted.`).waitFor();
    await page.getByText("No endpoints yet.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/webhooks");
  });

  it("a session ended elsewhere: signing in again clears the refused add's error beside the form", {
    timeout: 120_000,
  }, async () => {
    const { page, context } = suite.session;
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(`${receiver.url}/ended`);
    await dialog.getByRole("checkbox", { name: "All events" }).check();

    // Signed out from elsewhere: the server ends the session the browser still holds.
    expect(await endSessionElsewhere(suite.stack.serverUrl, context)).toBe(200);
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const ended = page.getByRole("dialog", { name: "Your session ended" });
    await ended.getByText(/expired or was signed out from elsewhere/).waitFor();
    // In the page's words: the server's own ("A valid session token is required") would only confuse.
    const staleError = dialog.getByText("Your session ended: sign in again to carry on.");
    await staleError.waitFor();
    expect(await page.getByText("A valid session token is required", { exact: false }).count()).toBe(0);
    await ended.getByRole("button", { name: "Sign in" }).click();
    await ended.waitFor({ state: "hidden" });

    // Signed in again: the form is as it was, without the ended session's error under it.
    await staleError.waitFor({ state: "detached" });
    expect(await dialog.getByRole("alert").count()).toBe(0);
    expect(await dialog.getByRole("textbox", { name: "Endpoint URL" }).inputValue()).toBe(
      `${receiver.url}/ended`,
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    // The refused add and the refused list refresh are the browser's own 401 lines.
    forgetRefusals(suite.session.problems, 401);
  });

  it("says so one endpoint before the cap of 10, and at it disables Add endpoint", {
    timeout: 120_000,
  }, async () => {
    const { page, context } = suite.session;
    const token = await sessionToken(context);
    const add = async (index: number) => {
      const response = await fetch(
        `${suite.stack.serverUrl}/api-keys/${suite.session.wallet.address}/webhooks`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ url: `${receiver.url}/${index}`, events: ["key.created"] }),
        },
      );
      expect(response.status).toBe(201);
    };
    for (let index = 1; index <= 9; index++) await add(index);
    await page.reload();
    const notice = page.getByRole("note");
    await notice.getByText("This wallet has 9 endpoints; Keyport allows 10.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Add endpoint" }).isDisabled()).toBe(false);
    await add(10);
    await page.reload();
    await notice
      .getByText(
        "This wallet has 10 endpoints, the most Keyport allows (10): delete one before adding another.",
      )
      .waitFor();
    expect(await page.getByRole("button", { name: "Add endpoint" }).isDisabled()).toBe(true);
    await checkBothWidths(page);
  });
});
