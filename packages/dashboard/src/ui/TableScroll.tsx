import type { ReactNode } from "react";

/**
 * A wide table's frame: on a narrow screen the table scrolls inside it, not the page. It is a named,
 * focusable region so keyboard users can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
