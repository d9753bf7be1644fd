import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { detectionRules } from "../src/leaks/detection-rules.js";

// `pnpm leak-rules` as an operator runs it (docs/leaks.md): settings from env.ts, so the rules are for the
// KEY_PREFIX the server issues. Slow tier: a tsx process; src/leaks/detection-rules.test.ts checks the
// rules themselves in `pnpm test`.
const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("../scripts/leak-rules.ts", import.meta.url));

describe("leak-rules command", () => {
  it("prints the detection rules for KEY_PREFIX and the base URL given", async () => {
    const { stdout } = await run(
      "pnpm",
      ["exec", "tsx", "--conditions=source", SCRIPT, "https://keys.example.com"],
      { env: { ...process.env, KEY_PREFIX: "acme" }, cwd: fileURLToPath(new URL("..", import.meta.url)) },
    );
    expect(stdout).toBe(detectionRules("acme", "https://keys.example.com"));
    expect(stdout).toContain("acme_");
  });
});
