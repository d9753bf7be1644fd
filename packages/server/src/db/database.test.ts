import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "./database.js";
import { readPgliteTemplate } from "./pglite-template.js";
import { apiKeys } from "./schema/index.js";

const dataDir = mkdtempSync(join(tmpdir(), "keyport-db-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("createDatabase on disk (PGlite)", () => {
  it("migrates, and keeps rows across reopening the same data dir", async () => {
    // A new folder starts from the committed template, as a first start does (pglite-init-child.ts): the
    // same folder without PGlite's initdb, seconds of CPU (test/migration-0005.test.ts runs one).
    const first = await createDatabase(undefined, dataDir, {
      pgliteTemplate: readPgliteTemplate() ?? undefined,
    });
    expect(first.kind).toBe("pglite");
    await first.ping();
    await first.db
      .insert(apiKeys)
      .values({ id: "key_0123456789abcdef0123", wallet: "0xW", name: "n", hash: "h", start: "kp_abcd" });
    await first.close();

    const second = await createDatabase(undefined, dataDir);
    const rows = await second.db.select().from(apiKeys);
    expect(rows.map((row) => row.id)).toEqual(["key_0123456789abcdef0123"]);
    await second.close();
    await expect(second.ping()).rejects.toThrow();
  });
});
