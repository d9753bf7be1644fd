// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SecretReveal } from "./SecretReveal";
import { usageExample } from "./usage-example";

afterEach(cleanup);

const secret = "kp_0123456789abcdefghijABCDEFGHIJklmnopqr";

describe("SecretReveal", () => {
  it("shows the new key with an @keyport/verify example that uses it, and a button to copy that example", () => {
    render(<SecretReveal secret={secret} onDone={() => {}} exampleServerUrl="https://keys.example.com" />);
    const example = screen.getByRole("region", { name: "Use it with @keyport/verify" });
    const code = within(example).getByRole("region", { name: "Example code" });
    expect(code.textContent).toBe(usageExample(secret, "https://keys.example.com"));
    expect(code.textContent).toContain('import { keyport } from "@keyport/verify/h3";');
    expect(code.textContent).toContain('new H3().use(keyport({ baseUrl: "https://keys.example.com" }));');
    expect(code.textContent).toContain(
      `curl -H "Authorization: Bearer ${secret}" http://localhost:8080/data`,
    );
    expect(within(example).getByRole("button", { name: "Copy example" })).toBeTruthy();
    // Not on npm yet: the dialog says how to install it from a checkout.
    expect(example.textContent).toContain("pnpm pack:public");
    expect(screen.getByRole("button", { name: "Copy" })).toBeTruthy();
  });

  it("shows no example after a roll", () => {
    render(<SecretReveal secret={secret} onDone={() => {}} />);
    expect(screen.queryByRole("region", { name: "Use it with @keyport/verify" })).toBeNull();
    expect(screen.getByText(secret)).toBeTruthy();
  });
});
