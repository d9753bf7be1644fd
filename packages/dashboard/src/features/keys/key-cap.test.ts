import { describe, expect, it } from "vitest";
import { activeKeyCapNotice } from "./key-cap";

describe("activeKeyCapNotice", () => {
  it("says nothing far from the cap, warns from 90 %, and says full at it", () => {
    expect(activeKeyCapNotice(44, 50)).toBeNull();
    expect(activeKeyCapNotice(45, 50)).toBe("near");
    expect(activeKeyCapNotice(50, 50)).toBe("full");
    expect(activeKeyCapNotice(0, 1)).toBeNull();
  });
});
