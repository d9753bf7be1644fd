import type { ReactNode } from "react";
import { safeHref } from "./safe-href";

// One pass over the text finds the earliest inline construct; everything between is plain text,
// which React escapes, so an agent's raw HTML is shown as text and never parsed.
const INLINE =
  /`([^`\n]+)`|!\[([^\]\n]*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)|\[([^\]\n]+)\]\(((?:[^()\s]|\([^()\s]*\))*)\)|\*\*([^*\n]+)\*\*|__([^_\n]+)__|\*([^*\s][^*\n]*)\*|(?<![A-Za-z0-9])_([^_\s][^_\n]*)_(?![A-Za-z0-9])|<(https?:\/\/[^\s<>]+)>/g;

const MAX_DEPTH = 4;

/**
 * Inline markdown as React elements: `code`, **bold**, *italic*, [links](https://...) and <https://...>.
 * Links other than http(s) and mailto become their text; images become their alt text (no request
 * leaves the page for an agent's image).
 */
export function renderInline(text: string, keyPrefix = "i", depth = 0): ReactNode[] {
  if (depth > MAX_DEPTH) return [text];
  const nodes: ReactNode[] = [];
  let last = 0;
  const matches = [...text.matchAll(INLINE)];
  for (const match of matches) {
    const index = match.index;
    if (index > last) nodes.push(text.slice(last, index));
    const key = `${keyPrefix}-${index}`;
    const [whole, code, alt, , linkText, linkHref, bold1, bold2, italic1, italic2, autolink] = match;
    if (code !== undefined) nodes.push(<code key={key}>{code}</code>);
    else if (alt !== undefined) nodes.push(alt === "" ? "" : `[image: ${alt}]`);
    else if (linkText !== undefined) nodes.push(link(key, linkText, linkHref ?? "", depth));
    else if (bold1 !== undefined || bold2 !== undefined)
      nodes.push(<strong key={key}>{renderInline(bold1 ?? bold2 ?? "", key, depth + 1)}</strong>);
    else if (italic1 !== undefined || italic2 !== undefined)
      nodes.push(<em key={key}>{renderInline(italic1 ?? italic2 ?? "", key, depth + 1)}</em>);
    else if (autolink !== undefined) nodes.push(link(key, autolink, autolink, depth));
    else nodes.push(whole);
    last = index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

function link(key: string, text: string, href: string, depth: number): ReactNode {
  const safe = safeHref(href);
  const children = renderInline(text, key, depth + 1);
  if (safe === null) return <span key={key}>{children}</span>;
  return (
    <a key={key} href={safe} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}
