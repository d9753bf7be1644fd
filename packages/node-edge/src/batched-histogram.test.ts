import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createBatchedHistogram } from "./batched-histogram.js";

describe("batched histogram", () => {
  it("exports what prom-client's own histogram exports for the same observations, as text and as JSON", async () => {
    const buckets = [0.001, 0.01, 0.1, 1];
    const config = { name: "x_seconds", help: "Time taken" };
    const ours = new Registry();
    const theirs = new Registry();
    const batched = createBatchedHistogram(ours, { ...config, buckets });
    const reference = new Histogram({
      ...config,
      labelNames: ["method", "route"],
      buckets,
      registers: [theirs],
    });
    const observations: [string, string, number][] = [
      ["GET", "/a", 0.0004],
      ["GET", "/a", 0.01],
      ["GET", "/a", 0.5],
      ["GET", "/a", 7],
      ["POST", "/b", 0.02],
    ];
    const series = new Map<string, ReturnType<typeof batched.series>>();
    for (const [method, route, value] of observations) {
      const key = `${method} ${route}`;
      const one = series.get(key) ?? batched.series(method, route);
      series.set(key, one);
      one.observe(value);
      reference.labels(method, route).observe(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });
});
