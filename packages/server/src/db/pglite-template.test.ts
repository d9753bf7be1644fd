import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pgliteTemplateKey, readPgliteTemplate, TEMPLATE_KEY_FILE } from "./pglite-template.js";

describe("the committed PGlite template", () => {
  it("was made from the current migrations and PGlite (else run `pnpm --filter @keyport/server db:template`)", () => {
    const recorded = JSON.parse(readFileSync(TEMPLATE_KEY_FILE, "utf8"));
    expect(recorded).toEqual({ key: pgliteTemplateKey() });
    expect(readPgliteTemplate()?.size).toBeGreaterThan(1_000_000);
  });
});
