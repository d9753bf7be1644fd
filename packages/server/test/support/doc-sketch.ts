/**
 * The answers the docs show in comments, e.g. `{"valid":true,"code":"VALID",...,"meta":{"plan":"free"}}`:
 * JSON in which `...` stands for members or elements left out (`{...}`, `[...]`, `,...,`) and, inside
 * a string, for any text (`"kp_..."` is any string starting `kp_`). An object or array without `...`
 * is complete: the answer must have exactly its members. Used by the docs tests to hold each comment
 * to the answer its command really gets.
 */
export type Sketch =
  | { kind: "object"; members: Map<string, Sketch>; open: boolean }
  | { kind: "array"; elements: Sketch[]; open: boolean }
  | { kind: "literal"; value: string | number | boolean | null };

type Literal = Extract<Sketch, { kind: "literal" }>;

const ELISION = "...";

/** Reads a sketch from the start of `text`; throws on anything else. */
export function parseSketch(text: string): Sketch {
  let at = 0;
  const skip = () => {
    while (/\s/.test(text[at] ?? "")) at++;
  };
  const fail = (what: string): never => {
    throw new Error(`sketch: ${what} at ${at} of ${text}`);
  };
  const elision = () => {
    skip();
    if (!text.startsWith(ELISION, at)) return false;
    at += ELISION.length;
    return true;
  };
  const literal = (): Literal => {
    skip();
    const match = /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      text.slice(at),
    );
    if (match === null) return fail("a value");
    at += match[0].length;
    return { kind: "literal", value: JSON.parse(match[0]) };
  };
  const value = (): Sketch => {
    skip();
    if (text[at] === "{") return object();
    if (text[at] === "[") return array();
    return literal();
  };
  // `{ member | ... , ... }` and `[ value | ... , ... ]` share their shape.
  const sequence = (close: string, item: () => void): boolean => {
    at++;
    let open = false;
    skip();
    if (text[at] === close) {
      at++;
      return open;
    }
    for (;;) {
      if (elision()) open = true;
      else item();
      skip();
      if (text[at] === ",") at++;
      else if (text[at] === close) {
        at++;
        return open;
      } else fail(`"," or "${close}"`);
    }
  };
  const object = (): Sketch => {
    const members = new Map<string, Sketch>();
    const open = sequence("}", () => {
      const key = literal();
      if (typeof key.value !== "string") fail("a member name");
      skip();
      if (text[at] !== ":") fail('":"');
      at++;
      members.set(String(key.value), value());
    });
    return { kind: "object", members, open };
  };
  const array = (): Sketch => {
    const elements: Sketch[] = [];
    const open = sequence("]", () => elements.push(value()));
    return { kind: "array", elements, open };
  };
  return value();
}

/** The first `{...}` of `text` with balanced braces (outside strings), or undefined. */
export function firstSketchText(text: string): string | undefined {
  const start = text.indexOf('{"');
  if (start === -1) return undefined;
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === "\\") at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return text.slice(start, at + 1);
  }
  return undefined;
}

/** Where `actual` differs from `sketch`, one line a difference (empty when it matches). */
export function compareToSketch(actual: unknown, sketch: Sketch, path = "$"): string[] {
  if (sketch.kind === "literal") {
    const expected = sketch.value;
    if (typeof expected === "string" && expected.includes(ELISION)) {
      const [prefix = "", suffix = ""] = expected.split(ELISION);
      return typeof actual === "string" && actual.startsWith(prefix) && actual.endsWith(suffix)
        ? []
        : [`${path}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`];
    }
    return actual === expected
      ? []
      : [`${path}: ${JSON.stringify(actual)}, the docs say ${JSON.stringify(expected)}`];
  }
  if (sketch.kind === "array") {
    if (!Array.isArray(actual)) return [`${path}: ${JSON.stringify(actual)} is not an array`];
    if (!sketch.open && actual.length !== sketch.elements.length)
      return [`${path}: ${actual.length} elements, the docs show ${sketch.elements.length}`];
    return sketch.elements.flatMap((element, index) =>
      compareToSketch(actual[index], element, `${path}[${index}]`),
    );
  }
  if (typeof actual !== "object" || actual === null || Array.isArray(actual))
    return [`${path}: ${JSON.stringify(actual)} is not an object`];
  const differences: string[] = [];
  for (const [name, member] of sketch.members) {
    if (!(name in actual)) differences.push(`${path}.${name}: missing from the answer`);
    else differences.push(...compareToSketch(Reflect.get(actual, name), member, `${path}.${name}`));
  }
  if (!sketch.open)
    for (const name of Object.keys(actual))
      if (!sketch.members.has(name)) differences.push(`${path}.${name}: in the answer, not in the docs`);
  return differences;
}
