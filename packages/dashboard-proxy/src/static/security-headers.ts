/**
 * Headers on every HTML answer. The CSP allows only the dashboard's own files: Vite emits module
 * scripts by `src` (no inline script), React sets `style` attributes (hence 'unsafe-inline' for
 * styles only), the favicon is a `data:` URL, and every request stays on this origin.
 */
export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};
