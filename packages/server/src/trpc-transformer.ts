import { JSON_TOO_DEEP, jsonDeeperThan, MAX_JSON_DEPTH } from "@keyport/node-edge";
import { TRPCError } from "@trpc/server";
import superjson, { type SuperJSONResult } from "superjson";

/** Why a key named `__proto__` is refused before superjson reads the input. */
export const PROTO_KEY_REFUSED = "The input must not have a key named __proto__";

/**
 * True when an object anywhere in `value` has an own key `__proto__`. superjson copies the input
 * and drops such a key without a word, so the procedure's schema (docs/api.md: `meta` refuses it)
 * would never see it.
 */
function hasProtoKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null) continue;
    if (!Array.isArray(next) && Object.hasOwn(next, "__proto__")) return true;
    pending.push(...(Array.isArray(next) ? next : Object.values(next)));
  }
  return false;
}

/** The checks every input passes before superjson reads it (see {@link transformer}). */
function checkInput(value: SuperJSONResult): void {
  // The envelope adds one level to what the procedure receives.
  if (jsonDeeperThan(value, MAX_JSON_DEPTH + 1)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: JSON_TOO_DEEP });
  }
  if (hasProtoKey(value)) throw new TRPCError({ code: "BAD_REQUEST", message: PROTO_KEY_REFUSED });
}

/**
 * The transformer's input deserialisation of an envelope the caller has just parsed and holds
 * alone (the tRPC verify fast path's body): the same checks, then superjson's documented
 * `inPlace` option, which skips the deep copy of the input (most of the deserialisation's cost).
 * Once `__proto__` keys are refused the copy is the same value, so the result is the same.
 */
export function deserializeOwnedInput(value: SuperJSONResult): unknown {
  checkInput(value);
  return superjson.deserialize(value, { inPlace: true });
}

/**
 * superjson, with each call's input checked before it is deserialised: nested deeper than
 * `MAX_JSON_DEPTH` (not counting superjson's `{ json, meta }` envelope), or holding a `__proto__`
 * key, is 400 `BAD_REQUEST`, as REST refuses the same body (docs/decisions.md, "JSON depth").
 * Outputs are superjson's own.
 */
export const transformer = {
  input: {
    serialize: (value: unknown) => superjson.serialize(value),
    deserialize: (value: SuperJSONResult) => {
      checkInput(value);
      return superjson.deserialize(value);
    },
  },
  output: superjson,
};
