import { describe, expect, it } from "vitest";
import { errorBody, INTERNAL_ERROR_MESSAGE, publicMessage, readEnvelope, withRequestId } from "./envelope.js";

describe("errorBody", () => {
  it("carries a 4xx message and its issues", () => {
    expect(errorBody("BAD_REQUEST", "Invalid request", [{ path: ["ids", 0], message: "Required" }])).toEqual({
      code: "BAD_REQUEST",
      message: "Invalid request",
      issues: [{ path: ["ids", 0], message: "Required" }],
    });
  });

  it("leaves out an empty issue list", () => {
    expect(errorBody("NOT_FOUND", "No such key", [])).toEqual({ code: "NOT_FOUND", message: "No such key" });
  });

  it("says only 'Internal server error' for a 500, whatever the message", () => {
    expect(errorBody("INTERNAL_SERVER_ERROR", 'relation "keys" does not exist').message).toBe(
      INTERNAL_ERROR_MESSAGE,
    );
  });

  it("keeps the fixed text of a feature that is off (501) and of a dependency's failure (502, 503, 504)", () => {
    expect(errorBody("NOT_IMPLEMENTED", "Payments are off on this server")).toEqual({
      code: "NOT_IMPLEMENTED",
      message: "Payments are off on this server",
    });
    expect(publicMessage("SERVICE_UNAVAILABLE", "The database is unavailable; retry shortly")).toBe(
      "The database is unavailable; retry shortly",
    );
    expect(publicMessage("BAD_GATEWAY", "The market data provider failed to answer")).toBe(
      "The market data provider failed to answer",
    );
    expect(publicMessage("GATEWAY_TIMEOUT", "The chat agent did not answer in time")).toBe(
      "The chat agent did not answer in time",
    );
  });
});

describe("readEnvelope", () => {
  it("reads an envelope with a known code, with or without issues", () => {
    expect(readEnvelope({ code: "FORBIDDEN", message: "No" })).toEqual({ code: "FORBIDDEN", message: "No" });
    expect(
      readEnvelope({ code: "BAD_REQUEST", message: "Bad", issues: [{ path: [0], message: "x" }] }),
    ).toEqual({
      code: "BAD_REQUEST",
      message: "Bad",
      issues: [{ path: [0], message: "x" }],
    });
  });

  it("keeps a 5xx's requestId when it is a request id, and drops one that is not", () => {
    expect(readEnvelope({ code: "INTERNAL_SERVER_ERROR", message: "x", requestId: "r-1" })).toEqual({
      code: "INTERNAL_SERVER_ERROR",
      message: "x",
      requestId: "r-1",
    });
    expect(readEnvelope({ code: "INTERNAL_SERVER_ERROR", message: "x", requestId: "a b" })).toEqual({
      code: "INTERNAL_SERVER_ERROR",
      message: "x",
    });
  });

  it("refuses unknown codes, missing messages and malformed issues", () => {
    expect(readEnvelope({ code: "TEAPOT", message: "x" })).toBeUndefined();
    expect(readEnvelope({ code: "NETWORK_ERROR", message: "x" })).toBeUndefined();
    expect(readEnvelope({ code: "NOT_FOUND" })).toBeUndefined();
    expect(readEnvelope({ code: "BAD_REQUEST", message: "x", issues: "no" })).toBeUndefined();
    expect(readEnvelope("<html>")).toBeUndefined();
    expect(readEnvelope(null)).toBeUndefined();
  });
});

describe("withRequestId", () => {
  it("adds the id to a 5xx envelope only", () => {
    const internal = errorBody("INTERNAL_SERVER_ERROR", "boom");
    expect(withRequestId(500, internal, "r-1")).toEqual({ ...internal, requestId: "r-1" });
    expect(withRequestId(503, errorBody("SERVICE_UNAVAILABLE", "Down"), "r-2").requestId).toBe("r-2");
    expect(withRequestId(404, errorBody("NOT_FOUND", "No"), "r-3")).toEqual({
      code: "NOT_FOUND",
      message: "No",
    });
  });
});

describe("reasons", () => {
  it("puts a 4xx refusal's reason and details in the body, and never on a 5xx", () => {
    expect(
      errorBody("FORBIDDEN", "Needs wallets:read", undefined, {
        reason: "INSUFFICIENT_SCOPE",
        details: { scope: "wallets:read" },
      }),
    ).toEqual({
      code: "FORBIDDEN",
      message: "Needs wallets:read",
      reason: "INSUFFICIENT_SCOPE",
      details: { scope: "wallets:read" },
    });
    expect(errorBody("INTERNAL_SERVER_ERROR", "x", undefined, { reason: "WALLET_SUSPENDED" })).toEqual({
      code: "INTERNAL_SERVER_ERROR",
      message: INTERNAL_ERROR_MESSAGE,
    });
  });

  it("reads a reason it does not know, and drops one that is not reason-shaped or details that are no object", () => {
    expect(
      readEnvelope({ code: "FORBIDDEN", message: "No", reason: "SOMETHING_NEW", details: { a: 1 } }),
    ).toEqual({ code: "FORBIDDEN", message: "No", reason: "SOMETHING_NEW", details: { a: 1 } });
    expect(
      readEnvelope({ code: "FORBIDDEN", message: "No", reason: "not a reason", details: { a: 1 } }),
    ).toEqual({
      code: "FORBIDDEN",
      message: "No",
    });
    expect(readEnvelope({ code: "FORBIDDEN", message: "No", reason: "PLAN_LIMIT", details: [1] })).toEqual({
      code: "FORBIDDEN",
      message: "No",
      reason: "PLAN_LIMIT",
    });
  });
});
