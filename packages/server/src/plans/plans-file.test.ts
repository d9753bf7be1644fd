import { describe, expect, it } from "vitest";
import { EnvError } from "../env.js";
import { parsePlansFile } from "./plans-file.js";

const parse = (value: unknown) => parsePlansFile(JSON.stringify(value), "plans.json");
const problems = (value: unknown): string[] => {
  try {
    parse(value);
  } catch (error) {
    if (error instanceof EnvError) return error.message.split("\n").slice(1);
    throw error;
  }
  return [];
};

describe("PLANS_FILE", () => {
  it("fills each plan's defaults: free, unmetered, any permission, the server's key cap, listed", () => {
    const file = parse({ plans: [{ id: "free", name: "Free" }], defaultPlan: "free" });
    expect(file.plans[0]).toEqual({
      id: "free",
      name: "Free",
      description: "",
      price: null,
      includedCredits: null,
      metered: false,
      maxActiveKeys: null,
      rateLimits: [],
      keyRateLimit: null,
      permissions: ["*"],
      public: true,
    });
  });

  it("names every problem on a line of its own", () => {
    const lines = problems({
      plans: [
        { id: "Pro!", name: "" },
        { id: "pro", name: "Pro", price: { amount: "0", days: 30 }, maxActiveKeys: 0, permissions: [] },
        {
          id: "pro",
          name: "Pro again",
          rateLimits: [
            { name: "a", limit: 1, windowSeconds: 1 },
            { name: "a", limit: 2, windowSeconds: 1 },
          ],
        },
        { id: "x", name: "X", colour: "red" },
      ],
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}plans\.0\.id: must be 1-32 characters/),
        expect.stringMatching(/^ {2}plans\.0\.name: /),
        expect.stringMatching(/^ {2}plans\.1\.price\.amount: must be above 0$/),
        expect.stringMatching(/^ {2}plans\.1\.maxActiveKeys: /),
        expect.stringMatching(/^ {2}plans\.1\.permissions: must list at least one pattern/),
        expect.stringMatching(/^ {2}plans\.2\.rateLimits\.1\.name: the name "a" is used twice$/),
        expect.stringMatching(/^ {2}plans\.3: .*colour/),
      ]),
    );
    for (const line of lines) expect(line).toMatch(/^ {2}plans\.\d\S*: \S/);
  });

  it("refuses text that is not JSON and a file with no plans", () => {
    expect(() => parsePlansFile("{ plans: [", "plans.json")).toThrow(
      /plans\.json:\n {2}\(root\): is not JSON/,
    );
    expect(problems({ plans: [] })).toEqual([expect.stringMatching(/^ {2}plans: /)]);
  });

  it("refuses one id used twice", () => {
    expect(
      problems({
        plans: [
          { id: "a", name: "A" },
          { id: "a", name: "B" },
        ],
      }),
    ).toEqual(['  plans.1.id: the id "a" is used twice']);
  });
});
