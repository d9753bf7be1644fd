import { describe, expect, inject, it } from "vitest";
import { FIRST_LOAD_BUDGET_KB, measureFirstLoad } from "../../../bench/lib/first-load.js";

describe("the dashboard's first load", () => {
  it("stays within the gzipped JavaScript budget, with charts, activity, webhooks, markets, chat and the operator console left to load lazily", async () => {
    const firstLoad = await measureFirstLoad(inject("dashboardDir"));
    expect(firstLoad.files.length).toBeGreaterThan(0);
    expect(firstLoad.gzipKb).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
    // Vite names a lazy chunk after its module: the route files of these views must not load eagerly.
    const eager = firstLoad.files.map((file) => file.path);
    expect(
      eager.filter((path) => /\/(usage|events|markets|coin|chat|webhooks?|operator)-[\w-]+\.js$/.test(path)),
    ).toEqual([]);
  });
});
