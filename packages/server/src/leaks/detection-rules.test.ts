import { describe, expect, it } from "vitest";
import { newKey } from "../keys/secret.js";
import { detectionRules } from "./detection-rules.js";

// What `pnpm leak-rules` prints, in-process; test/leak-rules-cli.test.ts (slow tier: a tsx process) runs the
// command itself and checks it prints this for the KEY_PREFIX it is given.
describe("leak-rules", () => {
  it("prints a regex that matches real keys of KEY_PREFIX and nothing else, a gitleaks rule and a TruffleHog detector", () => {
    const printed = detectionRules("acme", "https://keys.example.com");
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
