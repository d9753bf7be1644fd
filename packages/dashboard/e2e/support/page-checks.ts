import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * axe-core's serious and critical violations on the page as it is now, one line each (rule, impact,
 * the first offending elements), so a failing assertion says what to fix.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}: ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}

/** How far the page scrolls sideways (0 means the layout fits the viewport's width). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
