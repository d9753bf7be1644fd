/** See vitest-settings.js. */
export declare function serverTestSettings(
  name: string,
  bounds: { testTimeout: number; hookTimeout: number },
): {
  name: string;
  testTimeout: number;
  hookTimeout: number;
  alias: Record<string, string>;
  expect: { poll: { timeout: number; interval: number } };
  globalSetup: string[];
};
