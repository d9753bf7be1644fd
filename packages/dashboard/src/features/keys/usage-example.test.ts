import { describe, expect, it } from "vitest";
import { usageExample } from "./usage-example";

const secret = "kp_0123456789abcdefghijABCDEFGHIJklmnopqr";

describe("usageExample", () => {
  it("points the middleware at the server URL the proxy names, not a fixed localhost:3000", () => {
    const example = usageExample(secret, "http://127.0.0.1:4100");
    expect(example).toContain('keyport({ baseUrl: "http://127.0.0.1:4100" })');
    expect(example).not.toContain("localhost:3000");
    expect(usageExample(secret, "https://keys.example.com")).toContain(
      'keyport({ baseUrl: "https://keys.example.com" })',
    );
  });

  it("calls the example backend with the new key", () => {
    expect(usageExample(secret, "http://localhost:3000")).toContain(
      `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/data`,
    );
  });
});
