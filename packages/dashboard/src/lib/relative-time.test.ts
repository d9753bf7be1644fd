import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "./relative-time";

const now = new Date("2030-06-15T12:00:00Z");
const at = (ms: number) => new Date(now.getTime() + ms);

describe("formatRelativeTime", () => {
  it("says just now within a minute, either way", () => {
    expect(formatRelativeTime(at(-59_000), now)).toBe("just now");
    expect(formatRelativeTime(at(30_000), now)).toBe("just now");
  });

  it("uses the largest whole unit, past and future", () => {
    expect(formatRelativeTime(at(-5 * 60_000), now)).toBe("5 minutes ago");
    expect(formatRelativeTime(at(-3 * 3_600_000 - 59 * 60_000), now)).toBe("3 hours ago");
    expect(formatRelativeTime(at(-86_400_000), now)).toBe("yesterday");
    expect(formatRelativeTime(at(3 * 86_400_000), now)).toBe("in 3 days");
    expect(formatRelativeTime(at(-400 * 86_400_000), now)).toBe("last year");
  });
});
