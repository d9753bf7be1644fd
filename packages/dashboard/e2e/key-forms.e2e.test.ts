import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Session } from "./support/browser.js";
import { closeSecret, createKey } from "./support/flows.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

/** Whether the focused element is `name`'s input. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    const label = active?.getAttribute("aria-labelledby");
    return label ? document.getElementById(label)?.textContent : null;
  });

/** The text of what the input's aria-describedby names. */
const description = (input: ReturnType<Page["getByRole"]>) =>
  input.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" | "),
  );

// Errors beside their fields, a toast after every change, and the shown-once secret that asks before closing.
describe("key forms and their feedback", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({ signIn: true }, (opened) => ({ stack, session } = opened));

  it("puts each create error beside its field (aria-invalid, aria-describedby) and focuses the first", async () => {
    const { page } = session;
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("button", { name: "Add a limit" }).click();
    await dialog.getByRole("spinbutton", { name: "Requests" }).fill("10");
    await dialog.getByRole("spinbutton", { name: "Per seconds" }).fill("0");
    await dialog.getByRole("textbox", { name: "Metadata (optional)" }).fill("{");
    await dialog.getByRole("button", { name: "Create" }).click();

    const name = dialog.getByRole("textbox", { name: "Name", exact: true });
    await expect.poll(() => name.getAttribute("aria-invalid")).toBe("true");
    expect(await focusedLabel(page)).toBe("Name");
    expect(await description(name)).toBe("Give the key a name.");
    const window = dialog.getByRole("spinbutton", { name: "Per seconds" });
    expect(await window.getAttribute("aria-invalid")).toBe("true");
    expect(await description(window)).toMatch(/whole number of seconds/);
    expect(
      await dialog.getByRole("spinbutton", { name: "Requests" }).getAttribute("aria-invalid"),
    ).toBeNull();
    const meta = dialog.getByRole("textbox", { name: "Metadata (optional)" });
    expect(await description(meta)).toMatch(/^The metadata is not valid JSON\. \| A JSON object/);
    await dialog.getByRole("alert").getByText("3 fields need a change.").waitFor();

    // Fixing the name moves focus to the next wrong field on the next try.
    await name.fill("forms key");
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => focusedLabel(page)).toBe("Per seconds");
    expect(await name.getAttribute("aria-invalid")).toBeNull();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
  });

  it("asks before closing the shown-once secret: Escape, a click outside and Done all ask", async () => {
    const { page } = session;
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("secret key");
    await dialog.getByRole("button", { name: "Create" }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    const question = reveal.getByRole("group", { name: /Close without copying\?/ });

    await reveal.waitFor();
    await page.keyboard.press("Escape");
    await question.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Go back");
    await reveal.getByRole("button", { name: "Go back" }).click();
    await question.waitFor({ state: "hidden" });

    await page.mouse.click(5, 5);
    await question.waitFor();
    await reveal.getByRole("button", { name: "Go back" }).click();

    await reveal.getByRole("button", { name: "Done" }).click();
    await question.waitFor();
    await reveal.getByRole("button", { name: "Close without copying" }).click();
    await reveal.waitFor({ state: "hidden" });
  });

  it("copies the example's code and its install line with separate buttons, and closes without asking once the key is copied", async () => {
    const { page, context } = session;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.origin });
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("copied key");
    await dialog.getByRole("button", { name: "Create" }).click();
    const reveal = page.getByRole("dialog", { name: "Your new key" });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    await reveal.getByRole("button", { name: "Copy code" }).click();
    const code = await clipboard();
    expect(code).toContain(`keyport({ baseUrl: ${JSON.stringify(stack.serverUrl)} })`);
    expect(code).not.toMatch(/npm install|curl/);
    await reveal.getByRole("button", { name: "Copy install command" }).click();
    expect(await clipboard()).toMatch(/^npm install .*keyport-verify-\*\.tgz$/);

    await reveal.getByRole("button", { name: "Copy", exact: true }).click();
    const secret = await clipboard();
    expect(secret).toMatch(/^kp_/);
    await reveal.getByRole("button", { name: "Done" }).click();
    await reveal.waitFor({ state: "hidden" });
  });

  it("confirms create, edit, roll and revoke with a dismissable toast, and shows edit errors beside their fields", async () => {
    const { page } = session;
    const toasts = page.locator(".toaster");
    await createKey(page, "toast key");
    await toasts.getByText("Key “toast key” created.").waitFor();
    await toasts.getByRole("button", { name: "Dismiss: Key “toast key” created." }).click();
    await toasts.getByText("Key “toast key” created.").waitFor({ state: "hidden" });
    expect(
      await page
        .getByRole("status")
        .filter({ has: toasts.locator(".toast") })
        .count(),
    ).toBe(0);

    await page.getByRole("searchbox", { name: "Search" }).fill("toast key");
    await page.getByRole("link", { name: "toast key", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: /toast key/ }).waitFor();

    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const edit = page.getByRole("dialog", { name: /Edit/ });
    const permissions = edit.getByRole("textbox", { name: "Permissions (optional)" });
    await permissions.fill("Bad Permission");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => permissions.getAttribute("aria-invalid")).toBe("true");
    expect(await focusedLabel(page)).toBe("Permissions (optional)");
    expect(await description(permissions)).toMatch(/is not a permission/);
    await permissions.fill("prices:read");
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Key “toast key” saved.").waitFor();
    await page.locator(".details").getByText("prices:read", { exact: true }).waitFor();

    await page.getByRole("button", { name: "Roll", exact: true }).click();
    const roll = page.getByRole("dialog", { name: /Roll/ });
    await roll.getByRole("button", { name: "Roll", exact: true }).click();
    // Toasts of create and roll come once the secret's modal is closed (the page behind it is inert).
    await closeSecret(page.getByRole("dialog", { name: "Your new key" }));
    await page
      .getByRole("status")
      .getByText(/Key “toast key” rolled: the old secret works until/)
      .waitFor();

    await page.getByRole("button", { name: "Revoke", exact: true }).click();
    const revoke = page.getByRole("dialog", { name: /Revoke/ });
    await revoke.getByRole("button", { name: "Revoke", exact: true }).click();
    await page.getByRole("status").getByText("Key “toast key” revoked.").waitFor();
  });
});
