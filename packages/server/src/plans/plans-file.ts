import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { EnvError } from "../env.js";
import { plansFile } from "../schemas/plans.js";

/** A validated PLANS_FILE (docs/plans.md#plans_file). */
export type PlansFile = z.output<typeof plansFile>;

/**
 * Reads and validates PLANS_FILE. Every problem is one line naming where it is (`plans.1.price.amount:
 * must be above 0`), so an operator fixes them all in one go.
 * @throws EnvError when the file cannot be read, is not JSON, or breaks the plan schema.
 * @example const file = await readPlansFile("./plans.json");
 */
export async function readPlansFile(path: string): Promise<PlansFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new EnvError(`Invalid settings:\n  PLANS_FILE: cannot read ${path}`);
  }
  return parsePlansFile(text, path);
}

/** Validates the text of a plans file; `path` names it in the messages. */
export function parsePlansFile(text: string, path: string): PlansFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EnvError(`Invalid plans file ${path}:\n  (root): is not JSON`);
  }
  const result = plansFile.safeParse(json);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new EnvError(`Invalid plans file ${path}:\n${lines.join("\n")}`);
}
