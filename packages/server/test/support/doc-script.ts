/**
 * Runs the `sh` blocks of a docs page as written, with markers between their commented units, so a
 * test can hold each unit's comment to what its commands printed (see doc-sketch.ts).
 *
 * A unit is a group of comment lines and the commands after it. A comment group that starts with `{`
 * right after a command is that command's answer (`curl ...` then `# {"valid":false,...}`); any other
 * comment describes the commands below it (`# 5. Verify it ...: 200 {"valid":true,...}`). A unit
 * whose first command assigns `NAME=$(curl ...)` or `NAME=$(pnpm ...)` is answered by that variable.
 */
export interface DocUnit {
  /** The unit's comment, `#` and indentation removed, its lines joined by spaces. */
  comment: string;
  /** The comment after its command that shows the whole answer, when there is one. */
  answer?: string;
  /** The variable its first command's output was captured in. */
  captured?: string;
}

/** What one unit printed, and the value of its captured variable after it ran. */
export interface UnitRun {
  lines: string[];
  captured?: string;
}

const MARK = "@@doc-unit ";
const VALUE = "@@doc-captured ";

/** The ```sh blocks of a Markdown page, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
}

const commentText = (lines: string[]) =>
  lines
    .map((line) => line.replace(/^#\s*/, ""))
    .join(" ")
    .trim();

/** The blocks as one bash script with a marker echoed before each unit, and the units it marks. */
export function instrument(blocks: string[]): { script: string; units: DocUnit[] } {
  const units: DocUnit[] = [];
  const out: string[] = [];
  let current: DocUnit | undefined;
  const closeUnit = () => {
    if (current?.captured !== undefined) out.push(`printf '${VALUE}%s\\n' "$${current.captured}"`);
  };
  for (const block of blocks) {
    const lines = block.replace(/\n$/, "").split("\n");
    let index = 0;
    while (index < lines.length) {
      const line = lines[index] ?? "";
      if (!line.startsWith("#")) {
        const capture = /^([A-Z_][A-Z0-9_]*)=\$\((?:curl|pnpm) /.exec(line);
        if (current !== undefined && current.captured === undefined && capture !== null)
          current.captured = capture[1];
        out.push(line);
        index++;
        continue;
      }
      const group: string[] = [];
      while (lines[index]?.startsWith("#")) group.push(lines[index++] ?? "");
      const text = commentText(group);
      const previous = lines[index - group.length - 1];
      if (current !== undefined && text.startsWith("{") && previous !== undefined && previous !== "") {
        current.answer = text;
        out.push(...group);
        continue;
      }
      closeUnit();
      current = { comment: text };
      units.push(current);
      out.push(`echo '${MARK}${units.length - 1}'`, ...group);
    }
    closeUnit();
    // A unit ends with its block: the next block's prose may say anything.
    current = undefined;
  }
  return { script: out.join("\n"), units };
}

/** Splits what the script printed by unit. */
export function readRun(stdout: string, count: number): UnitRun[] {
  const runs: UnitRun[] = Array.from({ length: count }, () => ({ lines: [] }));
  let current: UnitRun | undefined;
  for (const line of stdout.split("\n")) {
    if (line.startsWith(MARK)) current = runs[Number(line.slice(MARK.length))];
    else if (line.startsWith(VALUE)) {
      if (current !== undefined) current.captured = line.slice(VALUE.length);
    } else if (line !== "") current?.lines.push(line);
  }
  return runs;
}
