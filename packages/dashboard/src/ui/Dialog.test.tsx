// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Dialog } from "./Dialog";

afterEach(cleanup);

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Confirm">
        <button type="button" onClick={() => setOpen(false)}>
          Done
        </button>
      </Dialog>
    </>
  );
}

describe("Dialog", () => {
  it("opens as a modal named by its title, closes on Escape (cancel) and gives focus back", () => {
    render(<Harness />);
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Confirm" });
    expect(dialog).toHaveProperty("open", true);

    // Escape makes the browser fire `cancel` on a modal dialog.
    fireEvent(dialog, new Event("cancel", { cancelable: true }));
    expect(dialog).toHaveProperty("open", false);
    expect(screen.queryByRole("button", { name: "Done" })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
