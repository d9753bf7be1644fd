import { isIP } from "node:net";

/**
 * Why `value` cannot be PUBLIC_URL, or null when it can: an absolute `https://` URL, or `http://` to
 * a loopback host (a local run: `localhost`, `127.x.x.x`, `[::1]`); no user, password, query or
 * fragment. A path is allowed (a server behind a proxy at `/keyport`).
 * @example publicUrlProblem("http://keyport.example.com") // "must use https:// (http:// only for localhost, 127.0.0.1 or [::1])"
 */
export function publicUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL, e.g. https://keyport.example.com";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an https:// URL";
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return "must use https:// (http:// only for localhost, 127.0.0.1 or [::1])";
  }
  if (url.username !== "" || url.password !== "") return "must not carry a user or password";
  if (url.search !== "" || url.hash !== "") return "must not carry a query or fragment";
  return null;
}

/** PUBLIC_URL as URLs are built from it: without a trailing slash. */
export function normalisePublicUrl(value: string): string {
  const url = new URL(value);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}
