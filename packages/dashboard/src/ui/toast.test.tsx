// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "./Toaster";
import { showToast, TOAST_MS } from "./toast";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  act(() => {
    vi.runAllTimers();
  });
  cleanup();
  vi.useRealTimers();
});

describe("toasts", () => {
  it("show in a status region, go by themselves after TOAST_MS, and on Dismiss", () => {
    render(<Toaster />);
    const region = screen.getByRole("status");
    act(() => showToast("Key “ci” revoked."));
    expect(region.textContent).toContain("Key “ci” revoked.");
    act(() => showToast("Key “ci” saved."));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss: Key “ci” saved." }));
    expect(region.textContent).not.toContain("saved");
    act(() => {
      vi.advanceTimersByTime(TOAST_MS);
    });
    expect(region.textContent).toBe("");
  });

  it("keeps the newest three", () => {
    render(<Toaster />);
    act(() => {
      for (const name of ["a", "b", "c", "d"]) showToast(`Key “${name}” created.`);
    });
    const text = screen.getByRole("status").textContent ?? "";
    expect(text).not.toContain("“a”");
    expect(text).toContain("“d”");
    expect(screen.getAllByRole("button")).toHaveLength(3);
  });
});
