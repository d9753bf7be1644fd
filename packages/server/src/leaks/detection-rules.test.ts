import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { newKey } from "../keys/secret.js";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("../../scripts/leak-rules.ts", import.meta.url));

/** Runs the real command (env.ts reads KEY_PREFIX) and returns what it prints. */
async function printRules(prefix: string): Promise<string> {
  const { stdout } = await run(
    "pnpm",
    ["exec", "tsx", "--conditions=source", SCRIPT, "https://keys.example.com"],
    {
      env: { ...process.env, KEY_PREFIX: prefix },
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
    },
  );
  return stdout;
}

describe("leak-rules", () => {
  it("prints a regex that matches real keys of KEY_PREFIX and nothing else, a gitleaks rule and a TruffleHog detector", async () => {
    const printed = await printRules("acme");
    const regexLine = printed.split("\n")[3] ?? "";
    const regex = new RegExp(regexLine);
    for (let i = 0; i < 200; i++) {
      const { key } = newKey("acme");
      expect(regex.test(key)).toBe(true);
      expect(regex.exec(`const key = "${key}";`)?.[0]).toBe(key);
    }
    const real = newKey("acme").key;
    for (const other of [
      newKey("kp").key,
      `${real}x`,
      real.slice(0, -1),
      `x${real}`,
      "acme_short",
      real.replace("_", "-"),
    ]) {
      expect(regex.test(other), other).toBe(false);
    }
    expect(printed).toContain(`regex = '''${regexLine}'''`);
    expect(printed).toContain('id = "keyport_api_key"');
    expect(printed).toContain("endpoint: https://keys.example.com/leaks/trufflehog");
    expect(printed).toContain("unsafe: false");
  });
});
