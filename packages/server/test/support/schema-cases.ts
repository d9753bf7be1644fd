// Inputs generated from a procedure's zod input schema (zod 4's `_zod.def`), for tests that send
// hostile values to every string field the router declares.

/** A path into an input: object fields and array indexes. */
export type InputPath = (string | number)[];

/** What a string field is given when it is not the one under attack, by the field's name. */
export type StringSample = (field: string) => string;

function defOf(schema: unknown): Record<string, unknown> {
  const zod: unknown =
    typeof schema === "object" && schema !== null ? Reflect.get(schema, "_zod") : undefined;
  const def: unknown = typeof zod === "object" && zod !== null ? Reflect.get(zod, "def") : undefined;
  return typeof def === "object" && def !== null ? (def as Record<string, unknown>) : {};
}

function shapeOf(def: Record<string, unknown>): [string, unknown][] {
  const shape = def.shape;
  return typeof shape === "object" && shape !== null ? Object.entries(shape) : [];
}

/**
 * A value `schema` is likely to accept: required object fields only, strings from `sample` by field
 * name, the first enum option, one array element. Close enough that a hostile value in one field is
 * what a procedure's validation (or its database) meets.
 */
export function sampleInput(schema: unknown, sample: StringSample, field = ""): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const value: Record<string, unknown> = {};
      for (const [name, child] of shapeOf(def)) {
        const childType = defOf(child).type;
        if (childType === "optional" || childType === "default") continue;
        value[name] = sampleInput(child, sample, name);
      }
      return value;
    }
    case "string":
      return sample(field);
    case "number":
      return 1;
    case "boolean":
      return true;
    case "literal":
      return Array.isArray(def.values) ? def.values[0] : undefined;
    case "enum":
      return typeof def.entries === "object" && def.entries !== null
        ? Object.values(def.entries)[0]
        : undefined;
    case "array":
      return [sampleInput(def.element, sample, field)];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return sampleInput(def.innerType, sample, field);
    case "pipe":
      // z.preprocess is a pipe whose input side is a transform: sample its output side.
      return defOf(def.in).type === "transform"
        ? sampleInput(def.out, sample, field)
        : sampleInput(def.in, sample, field);
    case "union":
      return Array.isArray(def.options) ? sampleInput(def.options[0], sample, field) : undefined;
    case "record":
      return {};
    case "date":
      return new Date(Date.now() + 86_400_000).toISOString();
    default:
      return undefined;
  }
}

/**
 * Every path in `schema` where a string may go (optional fields included, one array element, a
 * record's values under the key "k"), each with the field's name.
 */
export function stringPaths(schema: unknown, path: InputPath = [], depth = 0): InputPath[] {
  if (depth > 8) return [];
  const def = defOf(schema);
  switch (def.type) {
    case "object":
      return shapeOf(def).flatMap(([name, child]) => stringPaths(child, [...path, name], depth + 1));
    case "string":
      return [path];
    case "array":
      return stringPaths(def.element, [...path, 0], depth + 1);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return stringPaths(def.innerType, path, depth + 1);
    case "pipe":
      return stringPaths(defOf(def.in).type === "transform" ? def.out : def.in, path, depth + 1);
    case "union":
      return Array.isArray(def.options)
        ? [
            ...new Map(
              def.options.flatMap((o) => stringPaths(o, path, depth + 1)).map((p) => [JSON.stringify(p), p]),
            ).values(),
          ]
        : [];
    case "record":
      return [[...path, "k"]];
    default:
      return [];
  }
}

/** `input` with `value` put at `path`, creating the objects and arrays on the way. */
export function withValueAt(input: unknown, path: InputPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(input) ? [...input] : [];
    list[head] = withValueAt(list[head], rest, value);
    return list;
  }
  const object: Record<string, unknown> =
    typeof input === "object" && input !== null && !Array.isArray(input) ? { ...input } : {};
  object[head ?? ""] = withValueAt(object[head ?? ""], rest, value);
  return object;
}
