/** One validation problem: where (`["ids", 3]`, array indexes as numbers) and what. */
export interface ErrorIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The part of a zod error this module reads. Structural, so zod stays out of the runtime: a
 * `ZodError` (v3 or v4) fits it, and so does anything else shaped like one.
 */
export interface IssueSource {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}

/**
 * A zod error's issues in the envelope's form: each path (numbers stay numbers) and message. zod's
 * messages name what was expected and never echo the value, so they are safe to return.
 * @example issuesFromZod(schema.safeParse({ ids: ["ok", 5] }).error) // [{ path: ["ids", 1], message: "..." }]
 */
export function issuesFromZod(error: IssueSource): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
    message: issue.message,
  }));
}

/** `value` as a list of issues when it is one (a response body is never trusted), else `undefined`. */
export function readIssues(value: unknown): ErrorIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const issues: ErrorIssue[] = [];
  for (const item of value) {
    const issue = readIssue(item);
    if (issue === undefined) return undefined;
    issues.push(issue);
  }
  return issues;
}

function readIssue(value: unknown): ErrorIssue | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const path: unknown = Reflect.get(value, "path");
  const message: unknown = Reflect.get(value, "message");
  if (typeof message !== "string" || !Array.isArray(path)) return undefined;
  const parts: (string | number)[] = [];
  for (const part of path) {
    if (typeof part !== "string" && typeof part !== "number") return undefined;
    parts.push(part);
  }
  return { path: parts, message };
}
