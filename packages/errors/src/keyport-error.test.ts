import { describe, expect, it } from "vitest";
import { KeyportError, networkError, toKeyportError, validationFailure } from "./keyport-error.js";

describe("toKeyportError", () => {
  it("takes code, message and issues from an envelope and the status from the answer", () => {
    const error = toKeyportError(400, {
      code: "BAD_REQUEST",
      message: "Invalid request",
      issues: [{ path: ["ids", 2], message: "Too long" }],
    });
    expect(error).toBeInstanceOf(KeyportError);
    expect(error).toMatchObject({
      name: "KeyportError",
      code: "BAD_REQUEST",
      status: 400,
      message: "Invalid request",
      issues: [{ path: ["ids", 2], message: "Too long" }],
    });
  });

  it("falls back to the status's code and a message naming the status when the body is no envelope", () => {
    expect(toKeyportError(502, "<html>bad gateway</html>")).toMatchObject({
      code: "BAD_GATEWAY",
      status: 502,
      message: "The server answered HTTP 502",
      issues: undefined,
    });
    expect(toKeyportError(418, undefined, { fallbackMessage: "The proxy answered HTTP 418" })).toMatchObject({
      code: "BAD_REQUEST",
      message: "The proxy answered HTTP 418",
    });
  });

  it("carries the request's id: the envelope's (a 5xx) over the header's, a header's alone otherwise", () => {
    const envelope = {
      code: "INTERNAL_SERVER_ERROR",
      message: "Internal server error",
      requestId: "from-body",
    };
    expect(toKeyportError(500, envelope, { requestId: "from-header" }).requestId).toBe("from-body");
    expect(
      toKeyportError(404, { code: "NOT_FOUND", message: "No such key" }, { requestId: "r-1" }).requestId,
    ).toBe("r-1");
    expect(toKeyportError(502, "<html>", { requestId: "r-2" }).requestId).toBe("r-2");
    // A header that is not an id (too long, control characters) is left out, never echoed.
    expect(toKeyportError(404, undefined, { requestId: "x".repeat(500) }).requestId).toBeUndefined();
    expect(toKeyportError(404, undefined, { requestId: null }).requestId).toBeUndefined();
  });

  it("keeps the cause it is given", () => {
    const cause = new Error("underlying");
    expect(toKeyportError(500, undefined, { cause }).cause).toBe(cause);
  });
});

describe("other KeyportErrors", () => {
  it("a network failure is NETWORK_ERROR with status 0", () => {
    const cause = new TypeError("fetch failed");
    expect(networkError(cause)).toMatchObject({ code: "NETWORK_ERROR", status: 0, cause });
  });

  it("a local validation failure looks like the server's 400", () => {
    const error = { issues: [{ path: ["days"], message: "Required" }] };
    expect(validationFailure(error, "Invalid query")).toMatchObject({
      code: "BAD_REQUEST",
      status: 400,
      message: "Invalid query",
      issues: [{ path: ["days"], message: "Required" }],
    });
  });
});
