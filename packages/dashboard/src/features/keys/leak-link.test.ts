import { describe, expect, it } from "vitest";
import { leakHref } from "./leak-link";

describe("leakHref", () => {
  it("links only absolute http and https URLs", () => {
    expect(leakHref("https://github.com/o/r/blob/x/a.js#L2")).toBe("https://github.com/o/r/blob/x/a.js#L2");
    expect(leakHref("http://gitlab.example/x")).toBe("http://gitlab.example/x");
    for (const unsafe of [
      "javascript:alert(1)",
      "JaVa\tScript:alert(1)",
      "data:text/html,x",
      "/relative",
      "not a url",
      "mailto:a@b",
    ]) {
      expect(leakHref(unsafe)).toBeNull();
    }
  });
});
