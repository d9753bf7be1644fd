import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.js";

describe("page cursors", () => {
  it("round-trip createdAt and id", () => {
    const cursor = { createdAt: new Date("2030-01-02T03:04:05.678Z"), id: "key_0123456789abcdefABCDEF" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it("reject anything that is not a cursor", () => {
    expect(decodeCursor("not-a-cursor")).toBeNull();
    expect(decodeCursor(Buffer.from('["x","y"]').toString("base64url"))).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });
});
