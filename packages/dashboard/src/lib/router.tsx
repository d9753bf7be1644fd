import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from "react";

// A history-API router of a few lines: the dashboard has five paths, a library would outweigh them.
const NAVIGATE_EVENT = "keyport:navigate";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

/** The current `location.pathname`, re-rendering on navigation (links, back and forward). */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** Goes to `to` without a page load; `replace` keeps history from growing (redirects). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  window.scrollTo?.(0, 0);
}

/** Props of `Link`: an anchor whose `href` is a path of this app. */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: string;
}

/**
 * A real `<a href>` (middle click, copy link and screen readers keep working) that navigates in-app on a
 * plain left click.
 */
export function Link({ to, onClick, ...rest }: LinkProps) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  }
  return <a href={to} onClick={handleClick} {...rest} />;
}

/** The current `location.search` (with its "?"), re-rendering on navigation (links, back and forward). */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}
