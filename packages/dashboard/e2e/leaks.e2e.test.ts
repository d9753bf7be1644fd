import { describe, expect, it } from "vitest";
import { type Session, sessionToken } from "./support/browser.js";
import { signIn, verifyOverRest } from "./support/flows.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

// A leaked key is marked in the keys list, on its page and in the activity view (docs/leaks.md).
describe("a leaked key", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));

  it("shows 'Revoked: reported by its holder' in the list and on its page, and the event in the activity", async () => {
    const { page } = session;
    await page.goto(stack.origin);
    await signIn(page);
    const token = await sessionToken(session.context);
    const created = await fetch(`${stack.serverUrl}/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "pasted in an issue" }),
    });
    const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string } };
    // Anyone holding the key may report it: no session.
    const reported = await fetch(`${stack.serverUrl}/api-keys/report-leak`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key }),
    });
    expect(reported.status).toBe(202);
    expect(await verifyOverRest(stack.serverUrl, key)).toMatchObject({ code: "REVOKED" });

    await page.reload();
    const row = page.getByRole("row", { name: /pasted in an issue/ });
    await row.getByText("Revoked: reported by its holder").waitFor();
    await page.goto(`${stack.origin}/keys/${apiKey.id}`);
    await page.getByText("Revoked: reported by its holder").first().waitFor();
    await page.getByText("Key found in public and revoked").first().waitFor();
  });
});
