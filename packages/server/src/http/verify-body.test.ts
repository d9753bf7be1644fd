import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PERMISSION_LENGTH, MAX_PERMISSIONS } from "../schemas/key-policy.js";
import { MAX_VERIFY_KEY_LENGTH, verifyKeyInput } from "../schemas/verification.js";
import { parseJsonBody } from "./body.js";
import { plainVerifyInput } from "./verify-body.js";

/** The full path: JSON.parse, then the procedure's input schema; undefined when it refuses. */
function fullPath(body: Buffer): unknown {
  let value: unknown;
  try {
    value = parseJsonBody(body);
  } catch {
    return undefined;
  }
  const parsed = verifyKeyInput.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

// Keys as SDKs send them, and strings built to hit the scan's edges: quotes, backslashes, control
// characters, non-ASCII, DEL, and lengths around the schema's bound.
const awkward = fc.constantFrom(
  '"',
  "\\",
  "\\n",
  "\\u0041",
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "€",
  "😀",
  " ",
  "}",
  "{",
);
const keyText = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."abcXYZ019_-"), maxLength: MAX_VERIFY_KEY_LENGTH + 2 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(..."kp_a1"), awkward), maxLength: 40 }),
  fc
    .constantFrom(MAX_VERIFY_KEY_LENGTH - 1, MAX_VERIFY_KEY_LENGTH, MAX_VERIFY_KEY_LENGTH + 1)
    .map((n) => "k".repeat(n)),
);
// Permissions as keys hold them, and strings just outside the schema: capitals, spaces, quotes,
// the empty string, lengths around its bound.
const permissionText = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."abz09_.:*-"), minLength: 1, maxLength: 8 }),
  fc.string({
    unit: fc.oneof(fc.constantFrom(..."ab:*"), awkward, fc.constantFrom("A", "/", "")),
    maxLength: 6,
  }),
  fc.constantFrom(MAX_PERMISSION_LENGTH, MAX_PERMISSION_LENGTH + 1).map((n) => "p".repeat(n)),
);
const permissionList = fc.oneof(
  fc.array(permissionText, { maxLength: 4 }),
  fc
    .constantFrom(MAX_PERMISSIONS, MAX_PERMISSIONS + 1)
    .map((n) => Array.from({ length: n }, (_, i) => `p${i}`)),
);
// Bodies around the two shapes the scan takes: those shapes, and near misses of them.
const body = fc.oneof(
  fc.tuple(keyText, permissionList).map(([key, permissions]) => JSON.stringify({ key, permissions })),
  fc.tuple(keyText, permissionList).map(([key, permissions]) => JSON.stringify({ permissions, key })),
  fc
    .tuple(keyText, permissionList, fc.constantFrom(" ", ",", ",]", "]"))
    .map(([key, permissions, extra]) => JSON.stringify({ key, permissions }).replace("]", extra)),
  fc
    .tuple(keyText, permissionList, fc.nat(3))
    .map(([key, permissions, cost]) => JSON.stringify({ key, permissions, cost })),
  keyText.map((key) => `{"key":"${key}"}`),
  keyText.map((key) => JSON.stringify({ key })),
  fc.tuple(keyText, fc.constantFrom(" ", "\n", "\t")).map(([key, space]) => `{"key":${space}"${key}"}`),
  fc.tuple(keyText, fc.constantFrom("", " ", "\n")).map(([key, tail]) => `{"key":"${key}"}${tail}`),
  fc.tuple(keyText, fc.nat(1000)).map(([key, cost]) => JSON.stringify({ key, cost })),
  keyText.map((key) => `{"Key":"${key}"}`),
  keyText.map((key) => `{"key":"${key}"`),
  keyText.map((key) => `{"key":"${key}"}}`),
  fc.string({ maxLength: 30 }),
);

describe("plainVerifyInput", () => {
  it("gives exactly what JSON.parse and the input schema give, or leaves the body to them", () => {
    fc.assert(
      fc.property(body, (text) => {
        const bytes = Buffer.from(text, "utf8");
        const fast = plainVerifyInput(bytes);
        if (fast !== undefined) expect(fast).toStrictEqual(fullPath(bytes));
      }),
      { numRuns: 5_000 },
    );
  });

  it("takes the bodies the SDKs send for a verification with and without permissions", () => {
    const key = "kp_2VVZyPFteXq1cD0aYv8fLmN3oPzR7sT9uW4xY6z";
    expect(plainVerifyInput(Buffer.from(JSON.stringify({ key })))).toStrictEqual({ key, cost: 1 });
    const permissions = ["chat:write", "usage:*"];
    expect(plainVerifyInput(Buffer.from(JSON.stringify({ key, permissions })))).toStrictEqual({
      key,
      permissions,
      cost: 1,
    });
    expect(plainVerifyInput(Buffer.from(JSON.stringify({ key, permissions: [] })))).toStrictEqual({
      key,
      permissions: [],
      cost: 1,
    });
    expect(plainVerifyInput(Buffer.from(`{"key":"${"k".repeat(MAX_VERIFY_KEY_LENGTH)}"}`))).toBeDefined();
  });

  it.each([
    ["a key past the schema's bound", `{"key":"${"k".repeat(MAX_VERIFY_KEY_LENGTH + 1)}"}`],
    ["an escape", '{"key":"kp_\\u0041"}'],
    ["non-ASCII", '{"key":"kpé"}'],
    ["a space", '{ "key":"kp"}'],
    ["another field", '{"key":"kp","cost":2}'],
    ["a permission outside the schema", '{"key":"kp","permissions":["Chat"]}'],
    ["an empty permission", '{"key":"kp","permissions":[""]}'],
    ["a trailing comma", '{"key":"kp","permissions":["a",]}'],
    [
      `${MAX_PERMISSIONS + 1} permissions`,
      JSON.stringify({ key: "kp", permissions: Array.from({ length: MAX_PERMISSIONS + 1 }, () => "a") }),
    ],
    ["a truncated body", '{"key":"kp"'],
  ])("leaves %s to the full path", (_name, text) => {
    expect(plainVerifyInput(Buffer.from(text))).toBeUndefined();
  });
});
