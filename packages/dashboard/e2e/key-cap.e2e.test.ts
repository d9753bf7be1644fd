import { describe, expect, it } from "vitest";
import { NO_PROBLEMS, type Session, sessionToken } from "./support/browser.js";
import { createKey, signIn } from "./support/flows.js";
import { horizontalOverflow, seriousAxeViolations } from "./support/page-checks.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

// The active-key cap notice names the cap the server is configured with (keys.list's activeKeyCap).
describe("the active-key cap as the server is configured", () => {
  let stack: Stack;
  let session: Session;

  useDashboardSuite(
    { serverEnv: { MAX_ACTIVE_KEYS_PER_WALLET: "3" } },
    (opened) => ({ stack, session } = opened),
  );

  it("warns near a cap of 3, names it when the wallet holds 3 active keys, and passes axe at both widths", async () => {
    const { page, context } = session;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${stack.origin}/keys`);
    await signIn(page);
    const token = await sessionToken(context);
    for (const name of ["one", "two"]) {
      const response = await fetch(`${stack.serverUrl}/api-keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      expect(response.status).toBe(201);
    }
    await page.reload();
    const notice = page.getByRole("note");
    await notice
      .getByText("This wallet holds 2 active keys; this Keyport server allows 3.", { exact: false })
      .waitFor();

    await createKey(page, "three");
    await notice
      .getByText(
        "This wallet holds 3 active keys, the most this Keyport server allows (3): revoke a key before creating another.",
      )
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(session.problems).toEqual(NO_PROBLEMS);
  });
});
