// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SecretReveal } from "./SecretReveal";
import { usageExampleCall, usageExampleCode, usageExampleInstall } from "./usage-example";

afterEach(cleanup);

const secret = "kp_0123456789abcdefghijABCDEFGHIJklmnopqr";

describe("SecretReveal", () => {
  it("shows the new key with an @keyport/verify example: code, install line and test call, each with its own copy button", () => {
    render(<SecretReveal secret={secret} onDone={() => {}} exampleServerUrl="https://keys.example.com" />);
    const example = screen.getByRole("region", { name: "Use it with @keyport/verify" });
    const code = within(example).getByRole("region", { name: "Example code" });
    expect(code.textContent).toBe(usageExampleCode("https://keys.example.com"));
    expect(code.textContent).toContain('new H3().use(keyport({ baseUrl: "https://keys.example.com" }));');
    expect(code.textContent).not.toContain("curl");
    expect(within(example).getByRole("region", { name: "Install command" }).textContent).toBe(
      usageExampleInstall(),
    );
    expect(within(example).getByRole("region", { name: "Test call" }).textContent).toBe(
      usageExampleCall(secret),
    );
    for (const name of ["Copy code", "Copy install command", "Copy test call"]) {
      expect(within(example).getByRole("button", { name })).toBeTruthy();
    }
    // Not on npm yet: the dialog says how to install it from a checkout.
    expect(example.textContent).toContain("pnpm pack:public");
    expect(screen.getByRole("button", { name: "Copy" })).toBeTruthy();
  });

  it("shows no example after a roll", () => {
    render(<SecretReveal secret={secret} onDone={() => {}} />);
    expect(screen.queryByRole("region", { name: "Use it with @keyport/verify" })).toBeNull();
    expect(screen.getByText(secret)).toBeTruthy();
  });

  it("asks before closing: Go back or Close without copying, in place of Done", () => {
    const calls: string[] = [];
    render(
      <SecretReveal
        secret={secret}
        onDone={() => calls.push("done")}
        asking
        onStay={() => calls.push("stay")}
        onLeave={() => calls.push("leave")}
      />,
    );
    expect(screen.getByRole("group", { name: /Close without copying\?/ })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Done" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Go back" }));
    fireEvent.click(screen.getByRole("button", { name: "Close without copying" }));
    expect(calls).toEqual(["stay", "leave"]);
  });
});
