import type { ReactNode } from "react";
import { renderInline } from "./markdown-inline";

const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const FENCE = /^\s*```/;
const MAX_DEPTH = 3;

/**
 * Renders an agent's markdown as React elements, never as HTML: paragraphs, headings, lists, quotes,
 * fenced code and the inline forms of `renderInline`. Anything else shows as the text it is.
 * @example <Markdown text={answer} />
 */
export function Markdown({ text }: { text: string }) {
  return <div className="markdown">{renderBlocks(text.split(/\r?\n/), "b", 0)}</div>;
}

function renderBlocks(lines: string[], keyPrefix: string, depth: number): ReactNode[] {
  const blocks: ReactNode[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    const key = `${keyPrefix}-${index}`;
    if (line.trim() === "") {
      index += 1;
      continue;
    }
    if (FENCE.test(line)) {
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !FENCE.test(lines[index] ?? "")) body.push(lines[index++] ?? "");
      index += 1;
      blocks.push(
        <pre key={key}>
          <code>{body.join("\n")}</code>
        </pre>,
      );
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push(headingElement(key, heading[1]?.length ?? 1, renderInline(heading[2] ?? "", key)));
      index += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push(<hr key={key} />);
      index += 1;
      continue;
    }
    const list = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (list) {
      const items: ReactNode[] = [];
      while (index < lines.length && list.test(lines[index] ?? "")) {
        const itemKey = `${keyPrefix}-${index}`;
        items.push(<li key={itemKey}>{renderInline(list.exec(lines[index] ?? "")?.[1] ?? "", itemKey)}</li>);
        index += 1;
      }
      blocks.push(list === BULLET ? <ul key={key}>{items}</ul> : <ol key={key}>{items}</ol>);
      continue;
    }
    if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const inner: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index] ?? "")) {
        inner.push(QUOTE.exec(lines[index] ?? "")?.[1] ?? "");
        index += 1;
      }
      blocks.push(<blockquote key={key}>{renderBlocks(inner, key, depth + 1)}</blockquote>);
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length && startsParagraphLine(lines[index] ?? ""))
      paragraph.push(lines[index++] ?? "");
    blocks.push(<p key={key}>{renderInline(paragraph.join(" "), key)}</p>);
  }
  return blocks;
}

// A paragraph runs until a blank line or the start of another block.
function startsParagraphLine(line: string): boolean {
  if (line.trim() === "") return false;
  return ![FENCE, HEADING, RULE, BULLET, NUMBERED, QUOTE].some((pattern) => pattern.test(line));
}

// An answer's headings sit below the page's own h1 and the chat's h2.
function headingElement(key: string, level: number, children: ReactNode[]): ReactNode {
  const shifted = Math.min(6, level + 2);
  if (shifted === 3) return <h3 key={key}>{children}</h3>;
  if (shifted === 4) return <h4 key={key}>{children}</h4>;
  if (shifted === 5) return <h5 key={key}>{children}</h5>;
  return <h6 key={key}>{children}</h6>;
}
