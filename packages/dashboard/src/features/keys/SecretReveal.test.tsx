// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useGuardedClose } from "../../ui/use-guarded-close";
import { SecretReveal } from "./SecretReveal";
import { usageExampleCall, usageExampleCode, usageExampleInstall } from "./usage-example";

afterEach(cleanup);

const secret = "kp_0123456789abcdefghijABCDEFGHIJklmnopqr";

function Revealed({ exampleServerUrl }: { exampleServerUrl?: string }) {
  const guard = useGuardedClose(() => {});
  return <SecretReveal secret={secret} guard={guard} exampleServerUrl={exampleServerUrl} />;
}

describe("SecretReveal", () => {
  it("shows the new key with an @keyport/verify example: code, install line and test call, each with its own copy button", () => {
    render(<Revealed exampleServerUrl="https://keys.example.com" />);
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
    render(<Revealed />);
    expect(screen.queryByRole("region", { name: "Use it with @keyport/verify" })).toBeNull();
    expect(screen.getByText(secret)).toBeTruthy();
  });

  it("warns that Keyport keeps only the hash, and asks about the key before closing without a copy", () => {
    render(<Revealed />);
    expect(screen.getByText("Copy this key now.").parentElement?.textContent).toBe(
      "Copy this key now. Keyport stores only its hash: it will not be shown again.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.getByRole("group", { name: /Close without copying\?/ }).textContent).toContain(
      "The key cannot be shown again.",
    );
  });
});
