import { Fragment } from "react";

// After these a URL may wrap: between its parts, never inside a word of one.
const AFTER = /([/?&=.#_-]+)/;

/**
 * A URL as text that wraps only between its parts (after `/`, `.`, `?`, `&`, `=`, `-`, `_`, `#`), so on
 * a phone `…/webhooks/…` never reads `webhoo|ks`. Copying it copies the URL unchanged (`<wbr>` adds no
 * text).
 * @example <UrlText url="https://hooks.example.com/keyport" />
 */
export function UrlText({ url }: { url: string }) {
  const parts = url.split(AFTER).filter((part) => part !== "");
  return (
    <span className="url-text">
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
        <Fragment key={index}>
          {part}
          {AFTER.test(part) ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
