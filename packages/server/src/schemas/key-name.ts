import { storedText } from "./stored-text.js";

/** Longest key name, in UTF-16 code units after trimming. */
export const MAX_KEY_NAME_LENGTH = 64;

// Characters a name may not contain, each with why: what a dashboard or a log shows must be what was stored.
// - Cc: C0 and C1 control characters (U+0000-001F, U+007F-009F).
// - Cf: format characters, all invisible: bidirectional controls (U+200E/F, U+202A-202E, U+2066-2069,
//   U+061C), zero-width characters (U+200B-200D, U+2060, U+FEFF), the soft hyphen, tag characters.
// - Zl, Zp: the line and paragraph separators U+2028 and U+2029.
// - U+FFFD: the replacement character a decoder leaves for bytes that were not UTF-8 (a raw lone
//   surrogate arrives as U+FFFD, so the name was already lost before it reached us).
const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\uFFFD]/u;

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * A key's name as a caller sends it: trimmed of surrounding whitespace, then 1-64 characters with no
 * control, format (invisible or bidirectional), line-separator or replacement character, and no lone
 * surrogate (which PostgreSQL would store as U+FFFD). Each refusal names the offending code point.
 * @example keyName.parse("  prod ") === "prod"; keyName.safeParse("a\u202Eb").success === false
 */
export const keyName = storedText
  .trim()
  .min(1, "must not be empty or only whitespace")
  .max(MAX_KEY_NAME_LENGTH)
  .superRefine((name, ctx) => {
    const refused = REFUSED.exec(name)?.[0];
    if (refused !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `must not contain ${codePoint(refused)}: control, invisible, bidirectional and replacement characters are refused`,
      });
    }
  })
  .meta({
    description:
      "1-64 characters after trimming surrounding whitespace; control, format (invisible or bidirectional), line-separator and replacement characters and lone surrogates are refused",
    example: "production backend",
  });
