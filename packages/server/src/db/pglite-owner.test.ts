import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claimPgliteFolder, PgliteFolderInUse } from "./pglite-owner.js";

describe("claimPgliteFolder", () => {
  const folders: string[] = [];
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), "keyport-owner-"));
    folders.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it("refuses a folder another live process holds, naming it", () => {
    const held = folder();
    // The test runner's parent: alive for as long as this test runs.
    writeFileSync(join(held, "keyport.pid"), `${process.ppid}\n`);
    expect(() => claimPgliteFolder(held)).toThrow(PgliteFolderInUse);
    expect(() => claimPgliteFolder(held)).toThrow(`open in process ${process.ppid}`);
  });

  it("takes over a folder whose holder is gone, and gives it back on release", () => {
    const stale = folder();
    // Far above any pid this machine hands out.
    writeFileSync(join(stale, "keyport.pid"), "4194000\n");
    const release = claimPgliteFolder(stale);
    expect(readFileSync(join(stale, "keyport.pid"), "utf8")).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(join(stale, "keyport.pid"))).toBe(false);
  });
});
