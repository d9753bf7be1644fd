// The only module that reads the server's types (type-only: no server, zod or viem code reaches the
// package). The build replaces its declarations with the types printed in full, so the shipped .d.ts
// names neither the server nor zod.
import type { Verification, VerifyKeyInput } from "@keyport/server";
import type { Jsonified } from "./json.js";

/**
 * The body of `POST /api-keys/verify`'s answer: the server's `Verification` as JSON (times as ISO-8601
 * strings). Flat: `valid` and `code` vary independently here; `Verification` in verification.ts ties them.
 */
export type VerificationJson = Jsonified<Verification>;

/** The body `POST /api-keys/verify` reads, without the key: the client's ip, permissions the request needs, its cost. */
export type VerifyOptions = Omit<Jsonified<VerifyKeyInput>, "key">;
