import { describe, expect, it } from "vitest";
import { checksummed, shortAddress } from "./format";

describe("addresses", () => {
  it("are shown in their one checksummed casing, whatever casing they arrived in", () => {
    const lower = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    expect(checksummed(lower)).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(checksummed(lower.toUpperCase().replace("0X", "0x"))).toBe(
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    );
    expect(shortAddress(lower)).toBe("0x7099…79C8");
  });

  it("leave anything that is not an address as it is (a transaction hash)", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(checksummed(hash)).toBe(hash);
  });
});
