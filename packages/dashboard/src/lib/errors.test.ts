import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { describeError, errorStatus, isUnauthorized } from "./errors";
import { HttpError } from "./http";

describe("errors", () => {
  it("reads the status of the proxy's routes and of tRPC calls", () => {
    expect(errorStatus(new HttpError(401, "Not signed in"))).toBe(401);
    const trpc = new TRPCClientError("UNAUTHORIZED", {
      result: {
        error: { code: -32001, message: "UNAUTHORIZED", data: { code: "UNAUTHORIZED", httpStatus: 401 } },
      },
    });
    expect(isUnauthorized(trpc)).toBe(true);
    expect(errorStatus(new TypeError("Failed to fetch"))).toBeUndefined();
  });

  it("says what to do without server details", () => {
    expect(describeError(new TypeError("Failed to fetch"))).toMatch(/Cannot reach Keyport/);
    expect(describeError(new HttpError(503, "upstream db at 10.0.0.3 down"))).toBe(
      "The Keyport server is not answering right now. Try again in a moment.",
    );
    expect(describeError(new HttpError(500, "stack trace"))).not.toContain("stack");
    expect(describeError(new HttpError(409, "This wallet already holds the maximum of 50 active keys"))).toBe(
      "This wallet already holds the maximum of 50 active keys",
    );
  });

  it("shows a 501's reason, the server's choice, rather than calling it a failure", () => {
    expect(describeError(new HttpError(501, "Payments are off on this server"))).toBe(
      "Payments are off on this server",
    );
  });

  it("says the session ended, never the server's words for a missing token", () => {
    expect(describeError(new HttpError(401, "A valid session token is required"))).toBe(
      "Your session ended: sign in again to carry on.",
    );
  });

  it("names the service that failed", () => {
    expect(describeError(new HttpError(502, "x"), "market")).toBe(
      "The market data provider (CoinGecko) is not answering right now. Try again in a moment.",
    );
    expect(describeError(new HttpError(502, "x"), "agent")).toMatch(/^The chat agent /);
    expect(describeError(new HttpError(504, "x"))).toBe(
      "The Keyport server did not answer in time. Try again in a moment.",
    );
    expect(describeError(new HttpError(500, "x"), "agent")).toBe(
      "The chat agent failed (internal server error). Try again later.",
    );
  });
});
