import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, type PageCursor } from "./cursor.js";

const id = "key_0123456789abcdefABCDEF";

describe("page cursors", () => {
  it("round-trip the sort, order, sort value and id of every sort", () => {
    const cursors: PageCursor[] = [
      { sort: "created", order: "desc", value: new Date("2030-01-02T03:04:05.678Z"), id },
      { sort: "created", order: "asc", value: new Date("2030-01-02T03:04:05.678Z"), id },
      { sort: "lastUsed", order: "desc", value: new Date("2031-01-02T03:04:05.678Z"), id },
      { sort: "lastUsed", order: "asc", value: null, id },
      { sort: "name", order: "asc", value: "Zahlungen 🔑 ünd %_", id },
    ];
    for (const cursor of cursors) expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it("read an older server's [createdAt, id] cursor as newest first", () => {
    const old = Buffer.from(JSON.stringify(["2030-01-02T03:04:05.678Z", id])).toString("base64url");
    expect(decodeCursor(old)).toEqual({
      sort: "created",
      order: "desc",
      value: new Date("2030-01-02T03:04:05.678Z"),
      id,
    });
  });

  it("reject anything that is not a cursor", () => {
    expect(decodeCursor("not-a-cursor")).toBeNull();
    expect(decodeCursor(Buffer.from('["x","y"]').toString("base64url"))).toBeNull();
    expect(
      decodeCursor(Buffer.from(JSON.stringify(["name", "up", "a", id])).toString("base64url")),
    ).toBeNull();
    expect(
      decodeCursor(Buffer.from(JSON.stringify(["created", "asc", null, id])).toString("base64url")),
    ).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });
});
