// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SecretOnce } from "./SecretOnce";
import { useGuardedClose } from "./use-guarded-close";

afterEach(cleanup);

const secret = "whsec_MDEyMzQ1Njc4OWFiY2RlZmdoaWpBQkNERUZHSElKa2xt";

/** A dialog body as the callers build it: the guarded close calls `onClose`. */
function Shown({ onClose }: { onClose: () => void }) {
  const guard = useGuardedClose(onClose);
  return (
    <SecretOnce label="secret" secret={secret} warning={<strong>Copy this now.</strong>} guard={guard}>
      <p>How to use it.</p>
    </SecretOnce>
  );
}

describe("SecretOnce", () => {
  it("puts Copy right beside the secret and gives it focus as the secret appears", () => {
    render(<Shown onClose={() => {}} />);
    const copy = screen.getByRole("button", { name: "Copy" });
    expect(document.activeElement).toBe(copy);
    // Beside it: the secret and its Copy button share one row, before what the caller adds.
    expect(screen.getByText(secret).nextElementSibling?.contains(copy)).toBe(true);
  });

  it("shows the warning, the secret, what the caller adds, then Copy and Done", () => {
    render(<Shown onClose={() => {}} />);
    expect(screen.getByText("Copy this now.")).toBeTruthy();
    expect(screen.getByText(secret).tagName).toBe("CODE");
    expect(screen.getByText("How to use it.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Done" })).toBeTruthy();
  });

  it("asks before closing without a copy: Go back (focused) keeps it, Close without copying closes", () => {
    let closed = 0;
    render(<Shown onClose={() => closed++} />);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    const question = screen.getByRole("group", { name: /Close without copying\?/ });
    expect(question.textContent).toContain("The secret cannot be shown again.");
    expect(screen.queryByRole("button", { name: "Done" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Go back" }));

    fireEvent.click(screen.getByRole("button", { name: "Go back" }));
    expect(screen.queryByRole("group", { name: /Close without copying\?/ })).toBeNull();
    expect(closed).toBe(0);

    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    fireEvent.click(screen.getByRole("button", { name: "Close without copying" }));
    expect(closed).toBe(1);
  });

  it("closes at once on Done after the secret was copied", async () => {
    let closed = 0;
    render(<Shown onClose={() => closed++} />);
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await screen.findByText("Copied");
    expect(await navigator.clipboard.readText()).toBe(secret);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(closed).toBe(1));
    expect(screen.queryByRole("group", { name: /Close without copying\?/ })).toBeNull();
  });
});
