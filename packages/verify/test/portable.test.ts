import { fileURLToPath } from "node:url";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandIn, startStandIn, VALID_BODY } from "./support/stand-in.js";

const ENTRY = fileURLToPath(new URL("../src/index.ts", import.meta.url));

/** The main entry bundled with everything it imports, for no platform in particular. */
async function bundleMainEntry(format: "esm" | "iife") {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    platform: "neutral",
    format,
    globalName: "keyportVerify",
    // @keyport/errors from its source, as the package's build bundles it.
    conditions: ["source"],
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error("esbuild wrote nothing");
  return output.text;
}

describe("the main entry imports nothing Node-only", () => {
  let keyport: StandIn;
  beforeAll(async () => {
    keyport = await startStandIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(VALID_BODY);
    });
  });
  afterAll(() => keyport.close());

  it("bundles for a neutral platform with no import left (a node: module or Node built-in would fail the build)", async () => {
    const code = await bundleMainEntry("esm");
    expect(code).not.toMatch(/\bfrom\s*["']|\bimport\s*\(|\brequire\s*\(/);
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\b|node:/);
  });

  it("verifies a key in a context holding only the web platform's globals (no process, Buffer or require)", async () => {
    const code = await bundleMainEntry("iife");
    // What Workers, Deno and browsers share; the context brings its own JSON, Promise, Error...
    const context = createContext({
      fetch,
      AbortController,
      setTimeout,
      clearTimeout,
      Headers,
      Response,
      URL,
      console,
    });
    runInContext(code, context);
    expect(runInContext("typeof process + typeof Buffer + typeof require", context)).toBe(
      "undefinedundefinedundefined",
    );
    const verify: unknown = runInContext(
      `(key) => keyportVerify.createVerifier({ baseUrl: ${JSON.stringify(keyport.baseUrl)} }).verify(key)`,
      context,
    );
    if (typeof verify !== "function") throw new Error("expected a function");
    await expect(verify("kp_portable")).resolves.toMatchObject({ valid: true, code: "VALID" });
  });
});
