import { describe, expect, it } from "vitest";
import { usageExampleCall, usageExampleCode, usageExampleInstall } from "./usage-example";

const secret = "kp_0123456789abcdefghijABCDEFGHIJklmnopqr";

describe("usageExampleCode", () => {
  it("points the middleware at the server URL the proxy names, not a fixed localhost:3000", () => {
    const example = usageExampleCode("http://127.0.0.1:4100");
    expect(example).toContain('keyport({ baseUrl: "http://127.0.0.1:4100" })');
    expect(example).not.toContain("localhost:3000");
    expect(usageExampleCode("https://keys.example.com")).toContain(
      'keyport({ baseUrl: "https://keys.example.com" })',
    );
  });

  it("is TypeScript only: no shell line and no secret in it", () => {
    const example = usageExampleCode("http://localhost:3000");
    expect(example).not.toMatch(/curl|npm install/);
    expect(example).not.toContain("kp_");
  });
});

describe("the shell lines", () => {
  it("install the packed @keyport/verify, and call the example backend with the new key", () => {
    expect(usageExampleInstall()).toMatch(/^npm install .*keyport-verify-\*\.tgz$/);
    expect(usageExampleCall(secret)).toBe(
      `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/data`,
    );
  });
});
