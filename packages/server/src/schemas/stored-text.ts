import { z } from "zod";

// With the `u` flag a surrogate pair is one code point, so this matches only a lone half.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Why `text` cannot be stored in PostgreSQL and read back as sent, or undefined when it can: a lone
 * surrogate is not Unicode text (PostgreSQL refuses it, or a driver turns it into U+FFFD), and
 * U+0000 ends a C string (`text` and `jsonb` both refuse it). Either would fail the statement, a 500.
 * @example storedTextProblem("a\u0000b") // "must not contain U+0000 ..."
 */
export function storedTextProblem(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return "must not contain a lone surrogate (not valid Unicode text)";
  if (text.includes("\u0000")) return "must not contain U+0000 (PostgreSQL cannot store it)";
  return undefined;
}

/**
 * The one schema for free text that reaches PostgreSQL (stored, or sent as a query parameter):
 * a string with no lone surrogate and no U+0000, refused as 400 "Input validation failed" like
 * any other invalid field (docs/api.md, "Text"). Chain the field's own rules after it.
 * @example export const webhookDescription = storedText.trim().max(200)
 */
export const storedText = z.string().check((ctx) => {
  const problem = storedTextProblem(ctx.value);
  // Fatal: the field's own rules would only repeat the refusal in their words.
  if (problem !== undefined)
    ctx.issues.push({ code: "custom", message: problem, input: ctx.value, continue: false });
});
