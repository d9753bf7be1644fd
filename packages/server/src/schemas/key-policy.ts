import { z } from "zod";
import { parseIp } from "./ip-address.js";
import { MAX_ALLOWED_IPS, normaliseIpBlock } from "./ip-block.js";
import { storedJsonProblem } from "./stored-json.js";

/** Longest permission string. */
export const MAX_PERMISSION_LENGTH = 64;
/** Longest list of permissions a key holds or a verification asks for. */
export const MAX_PERMISSIONS = 50;
/** Largest `meta`, in UTF-8 bytes of its JSON. */
export const MAX_META_BYTES = 1024;
/** Largest credit balance or refill amount. */
export const MAX_CREDITS = 1_000_000_000;

/**
 * A permission: `prices:read`, `admin.*`. A held permission ending in `*` grants every requested one
 * starting with what precedes it; `*` alone grants all (docs/api.md).
 */
export const permission = z
  .string()
  .regex(
    new RegExp(`^[a-z0-9_.:*-]{1,${MAX_PERMISSION_LENGTH}}$`),
    `must be 1-${MAX_PERMISSION_LENGTH} characters of a-z, 0-9, _ . : * -`,
  )
  .meta({ example: "prices:read" });

/** A key's permissions: at most `MAX_PERMISSIONS`, duplicates dropped, order kept. */
export const permissions = z
  .array(permission)
  .max(MAX_PERMISSIONS)
  .transform((list) => [...new Set(list)])
  .meta({ description: `At most ${MAX_PERMISSIONS} permission strings` });

/** How a key's credits refill: `remaining` is set (not added) to `amount` at each UTC day or month start. */
export const creditsRefill = z
  .object({
    interval: z.enum(["daily", "monthly"]),
    amount: z.number().int().min(1).max(MAX_CREDITS),
  })
  .meta({ id: "CreditsRefill" });

/** A key's credits as set on create or update. */
export const creditsInput = z
  .object({
    remaining: z.number().int().min(0).max(MAX_CREDITS),
    refill: creditsRefill.nullable().default(null),
  })
  .meta({ id: "CreditsInput" });

/**
 * A key's credits as returned: the balance now (a refill due is applied) and the refill rule.
 * `remaining` is what a verification can spend: the allowance plus the purchased credits
 * (docs/verifying-keys.md#two-pools).
 */
export const credits = z
  .object({
    remaining: z.number().int().meta({ description: "The allowance plus the purchased credits" }),
    purchased: z.number().int().meta({
      description:
        "Credits bought by top-ups: spent after the allowance, never refilled, set by PATCH or expired",
    }),
    refill: creditsRefill.nullable(),
    refilledAt: z.date().nullable().meta({ format: "date-time", description: "Last refill, if any" }),
  })
  .meta({ id: "Credits" });

/** UTF-8 bytes of `value`'s JSON. */
export function jsonBytes(value: unknown): number {
  return utf8.encode(JSON.stringify(value)).length;
}

const utf8 = new TextEncoder();

/**
 * `meta`: any JSON object the backend wants back from verify, at most 1 KiB of JSON, that PostgreSQL
 * stores as sent: no lone surrogate, no U+0000 and no key named `__proto__` at any depth (see
 * `storedJsonProblem`). Checked before the record is parsed, since parsing drops `__proto__`.
 */
export const meta = z
  .preprocess(
    (value, ctx) => {
      const problem = storedJsonProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
      return value;
    },
    z.record(z.string(), z.json()),
  )
  .refine((value) => jsonBytes(value) <= MAX_META_BYTES, `must be at most ${MAX_META_BYTES} bytes of JSON`)
  .meta({
    id: "KeyMeta",
    description: `A JSON object returned by verify, e.g. the backend's customer id (at most ${MAX_META_BYTES} bytes of JSON)`,
    example: { customerId: "cus_123", plan: "pro" },
  });

/** Longest text read as an address or block (an IPv6 address with a dotted tail and a prefix is 49). */
const MAX_IP_TEXT = 64;

/**
 * A key's IP allow-list: up to `MAX_ALLOWED_IPS` IPv4 or IPv6 addresses or CIDR blocks, each stored
 * normalised (host bits cleared, a bare address as /32 or /128, IPv6 in RFC 5952 text, a mapped
 * IPv4 block as IPv4), duplicates dropped, order kept. A bad entry is an issue at its index that
 * names it (docs/verifying-keys.md#ip-allow-lists).
 */
export const allowedIps = z
  .array(z.string().max(MAX_IP_TEXT, `must be at most ${MAX_IP_TEXT} characters`))
  .min(1, "must hold at least one entry (null allows any address)")
  .max(MAX_ALLOWED_IPS, `must hold at most ${MAX_ALLOWED_IPS} entries`)
  .transform((entries, ctx) => {
    const normalised: string[] = [];
    for (const [index, entry] of entries.entries()) {
      const block = normaliseIpBlock(entry);
      if (block === null) {
        ctx.addIssue({
          code: "custom",
          path: [index],
          message: `${JSON.stringify(entry)} is not an IPv4 or IPv6 address or CIDR block`,
          input: entry,
        });
      } else normalised.push(block);
    }
    return [...new Set(normalised)];
  })
  .meta({
    description: `At most ${MAX_ALLOWED_IPS} IPv4 or IPv6 addresses or CIDR blocks (10.0.0.0/8, 2001:db8::/32); stored normalised`,
    example: ["10.0.0.0/8", "203.0.113.7"],
  });

/** The end client's address on verify: IPv4 (dotted decimal) or IPv6. */
export const ipAddress = z
  .string()
  .max(MAX_IP_TEXT, `must be at most ${MAX_IP_TEXT} characters`)
  .refine((text) => parseIp(text) !== null, "must be an IPv4 or IPv6 address")
  .meta({ example: "203.0.113.7" });

/** The cost of one verification in credits: 0-1,000, default 1 (ignored for keys without credits). */
export const cost = z.number().int().min(0).max(1000).default(1);

export type Credits = z.infer<typeof credits>;
export type CreditsInput = z.infer<typeof creditsInput>;
export type CreditsRefill = z.infer<typeof creditsRefill>;
export type KeyMeta = z.infer<typeof meta>;
