import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { codeForStatus, ERROR_STATUS, isErrorCode, isKeyportErrorCode, statusOf } from "./codes.js";

describe("the code table", () => {
  it("gives each code tRPC's HTTP status, and NETWORK_ERROR 0", () => {
    expect(statusOf("BAD_REQUEST")).toBe(400);
    expect(statusOf("UNAUTHORIZED")).toBe(401);
    expect(statusOf("TOO_MANY_REQUESTS")).toBe(429);
    expect(statusOf("CLIENT_CLOSED_REQUEST")).toBe(499);
    expect(statusOf("SERVICE_UNAVAILABLE")).toBe(503);
    expect(statusOf("NETWORK_ERROR")).toBe(0);
  });

  it("agrees with tRPC's own status for every code (the compiler checks the names, this the numbers)", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      if (!isErrorCode(code)) throw new Error(`not a code: ${code}`);
      expect(getHTTPStatusCodeFromError(new TRPCError({ code })), code).toBe(status);
    }
  });

  it("maps a bare status to its code, the first of a shared status, and unknown ones by class", () => {
    expect(codeForStatus(400)).toBe("BAD_REQUEST");
    expect(codeForStatus(404)).toBe("NOT_FOUND");
    expect(codeForStatus(413)).toBe("PAYLOAD_TOO_LARGE");
    expect(codeForStatus(418)).toBe("BAD_REQUEST");
    expect(codeForStatus(502)).toBe("BAD_GATEWAY");
    expect(codeForStatus(507)).toBe("INTERNAL_SERVER_ERROR");
  });

  it("round-trips every status it knows", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      if (code !== "PARSE_ERROR") expect(codeForStatus(status)).toBe(code);
    }
  });

  it("tells known codes from other strings; NETWORK_ERROR is a client code only", () => {
    expect(isErrorCode("CONFLICT")).toBe(true);
    expect(isErrorCode("NETWORK_ERROR")).toBe(false);
    expect(isKeyportErrorCode("NETWORK_ERROR")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});
