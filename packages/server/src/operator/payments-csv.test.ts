import { describe, expect, it } from "vitest";
import { csvCell } from "./payments-csv.js";

describe("csvCell", () => {
  it("writes plain values as they are and null as an empty cell", () => {
    expect(csvCell("0xabc")).toBe("0xabc");
    expect(csvCell(1500)).toBe("1500");
    expect(csvCell(null)).toBe("");
  });

  it("quotes a cell holding a quote, comma or line break, doubling its quotes (RFC 4180)", () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a\nb")).toBe('"a\nb"');
  });

  it("prefixes a cell a spreadsheet would run as a formula with a quote mark", () => {
    for (const start of ["=", "+", "-", "@", "\t"])
      expect(csvCell(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    expect(csvCell("\rHYPERLINK()")).toBe(`"'\rHYPERLINK()"`);
  });
});
