import type { Verification as ServerVerification } from "@keyport/server";
import type { Context } from "hono";
import type { GetConnInfo } from "hono/conninfo";
import { describe, expectTypeOf, it } from "vitest";
import type { KeyportContext as ExpressContext } from "../src/express.js";
import type { KeyportEnv, KeyportHonoOptions } from "../src/hono.js";
import type {
  JsonValue,
  KeyportUnavailable,
  UnrecognizedRefusal,
  ValidVerification,
  Verification,
  VerificationCode,
  VerificationJson,
  Verifier,
  VerifyOptions,
  VerifyResult,
} from "../src/index.js";

declare const result: VerifyResult;
declare const c: Context<KeyportEnv>;

/** The answer's JSON as the server's schema makes it today: update it (and docs/backend.md) when it changes. */
interface PinnedVerificationJson {
  valid: boolean;
  code:
    | "VALID"
    | "NOT_FOUND"
    | "REVOKED"
    | "EXPIRED"
    | "IP_NOT_ALLOWED"
    | "INSUFFICIENT_PERMISSIONS"
    | "USAGE_EXCEEDED"
    | "RATE_LIMITED"
    | "WALLET_SUSPENDED";
  keyId: string | null;
  wallet: string | null;
  expiresAt: string | null;
  ratelimit: {
    name: string;
    scope: "key" | "wallet" | "plan";
    limit: number;
    remaining: number;
    resetAt: string;
  } | null;
  ratelimits: {
    name: string;
    scope: "key" | "wallet" | "plan";
    limit: number;
    remaining: number;
    resetAt: string;
  }[];
  permissions: string[];
  credits: { remaining: number; purchased: number; refillAt: string | null } | null;
  meta: { [key: string]: JsonValue } | null;
  plan: { id: string; name: string } | null;
}

describe("the verification's types", () => {
  it("are the server's Verification with times as ISO strings, and fail when the server's schema drifts", () => {
    expectTypeOf<VerificationJson>().toEqualTypeOf<PinnedVerificationJson>();
    expectTypeOf<ServerVerification["expiresAt"]>().toEqualTypeOf<Date | null>();
    expectTypeOf<VerificationJson["expiresAt"]>().toEqualTypeOf<string | null>();
    expectTypeOf<keyof Verification>().toEqualTypeOf<keyof ServerVerification>();
    expectTypeOf<VerificationCode>().toEqualTypeOf<ServerVerification["code"]>();
  });

  it("make every member of the union a verification the server can send, and cover every code", () => {
    expectTypeOf<Verification>().toExtend<VerificationJson>();
    expectTypeOf<Verification["code"]>().toEqualTypeOf<VerificationJson["code"]>();
    expectTypeOf<VerifyResult["code"]>().toEqualTypeOf<VerificationCode | "UNRECOGNIZED" | "UNAVAILABLE">();
  });

  it("narrow on valid and on code", () => {
    if (result.valid) {
      expectTypeOf(result).toEqualTypeOf<ValidVerification>();
      expectTypeOf(result.keyId).toEqualTypeOf<string>();
      expectTypeOf(result.wallet).toEqualTypeOf<string>();
      expectTypeOf(result.code).toEqualTypeOf<"VALID">();
    }
    if (result.code === "NOT_FOUND") {
      expectTypeOf(result.keyId).toEqualTypeOf<null>();
      expectTypeOf(result.valid).toEqualTypeOf<false>();
    }
    if (result.code === "RATE_LIMITED") {
      expectTypeOf(result.keyId).toEqualTypeOf<string>();
      expectTypeOf(result.ratelimit).toEqualTypeOf<{
        name: string;
        scope: "key" | "wallet" | "plan";
        limit: number;
        remaining: number;
        resetAt: string;
      } | null>();
    }
    if (result.code === "UNRECOGNIZED") {
      expectTypeOf(result).toEqualTypeOf<UnrecognizedRefusal>();
      expectTypeOf(result.serverCode).toEqualTypeOf<string>();
      expectTypeOf(result.valid).toEqualTypeOf<false>();
    }
    if (result.code === "UNAVAILABLE") {
      expectTypeOf(result).toEqualTypeOf<KeyportUnavailable>();
      expectTypeOf(result.reason).toEqualTypeOf<"timeout" | "network" | "server_error" | "bad_answer">();
    }
  });

  it("take verify's options from the server's input: ip, permissions, cost and ratelimits, all optional", () => {
    expectTypeOf<VerifyOptions>().toEqualTypeOf<{
      ip?: string | undefined;
      permissions?: string[] | undefined;
      cost?: number | undefined;
      ratelimits?: { name: string; cost: number }[] | undefined;
    }>();
    expectTypeOf<Verifier["verify"]>().parameters.toEqualTypeOf<[key: string, options?: VerifyOptions]>();
    expectTypeOf<Verifier["verify"]>().returns.toEqualTypeOf<Promise<VerifyResult>>();
  });
});

describe("the middleware's context types", () => {
  it("give the route the VALID verification, or UNAVAILABLE under allow", () => {
    expectTypeOf<ExpressContext>().toEqualTypeOf<ValidVerification | KeyportUnavailable>();
    expectTypeOf<Express.Request["keyport"]>().toEqualTypeOf<ExpressContext | undefined>();
    expectTypeOf(c.get("keyport")).toEqualTypeOf<ExpressContext>();
  });
});

describe("Hono's options", () => {
  it("take any runtime's getConnInfo", () => {
    expectTypeOf<GetConnInfo>().toExtend<NonNullable<KeyportHonoOptions["getConnInfo"]>>();
  });
});
