import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issuesFromZod, readIssues } from "./issues.js";

describe("issuesFromZod", () => {
  it("keeps array indexes as numbers and names as strings", () => {
    const schema = z.object({ ids: z.array(z.string()), meta: z.object({ plan: z.string() }) });
    const result = schema.safeParse({ ids: ["a", 5], meta: { plan: 1 } });
    expect(result.success).toBe(false);
    const issues = result.error ? issuesFromZod(result.error) : [];
    expect(issues).toEqual([
      { path: ["ids", 1], message: expect.any(String) },
      { path: ["meta", "plan"], message: expect.any(String) },
    ]);
  });

  it("reports a problem with the whole input at the empty path", () => {
    const result = z.string().safeParse(3);
    expect(result.error ? issuesFromZod(result.error) : []).toEqual([
      { path: [], message: expect.any(String) },
    ]);
  });

  it("never echoes the rejected value", () => {
    const secret = "kp_live_secretvalue0123456789";
    const result = z.object({ name: z.string().max(3) }).safeParse({ name: secret });
    expect(JSON.stringify(result.error ? issuesFromZod(result.error) : [])).not.toContain(secret);
  });
});

describe("readIssues", () => {
  it("accepts issues as the servers send them", () => {
    const issues = [{ path: ["ids", 3], message: "Expected string" }];
    expect(readIssues(issues)).toEqual(issues);
  });

  it("refuses anything else", () => {
    expect(readIssues({ path: [], message: "x" })).toBeUndefined();
    expect(readIssues([{ path: [true], message: "x" }])).toBeUndefined();
    expect(readIssues([{ path: ["a"] }])).toBeUndefined();
    expect(readIssues([null])).toBeUndefined();
  });
});
