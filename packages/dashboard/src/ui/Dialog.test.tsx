// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
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

/** A key's row whose Revoke goes away once it has revoked. */
function Row() {
  const [open, setOpen] = useState(false);
  const [revoked, setRevoked] = useState(false);
  return (
    <table>
      <tbody>
        <tr>
          <th>
            <a href="/keys/1">billing</a>
          </th>
          <td>
            {revoked ? null : (
              <button type="button" onClick={() => setOpen(true)}>
                Revoke
              </button>
            )}
            <Dialog open={open} onClose={() => setOpen(false)} title="Revoke billing?">
              <button
                type="button"
                onClick={() => {
                  setRevoked(true);
                  setOpen(false);
                }}
              >
                Confirm
              </button>
            </Dialog>
          </td>
        </tr>
      </tbody>
    </table>
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

  it("gives focus to the row's link when the button that opened it is gone (a revoked key's Revoke)", async () => {
    render(<Row />);
    const revoke = screen.getByRole("button", { name: "Revoke" });
    revoke.focus();
    fireEvent.click(revoke);
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("link", { name: "billing" })));
  });
});
