import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

/** A fresh, empty database for one scenario module. */
export type BenchDatabase =
  | { kind: "postgres"; url: string }
  /** An on-disk PGlite folder (the server's default embedded mode), not yet created. */
  | { kind: "pglite"; dir: string };

/** Creates bench databases and removes every one of them at `dropAll()`. */
export interface DatabaseFactory {
  create(kind: BenchDatabase["kind"]): Promise<BenchDatabase>;
  dropAll(): Promise<void>;
}

/** `adminUrl` names an existing database the bench may `CREATE DATABASE` from. */
export function createDatabaseFactory(adminUrl: string): DatabaseFactory {
  const cleanups: Array<() => Promise<void>> = [];
  return {
    async create(kind) {
      if (kind === "pglite") {
        const dir = await mkdtemp(join(tmpdir(), "keyport-bench-"));
        cleanups.push(() => rm(dir, { recursive: true, force: true }));
        return { kind, dir };
      }
      const name = `keyport_bench_${randomBytes(5).toString("hex")}`;
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`create database "${name}"`);
      } finally {
        await admin.end();
      }
      cleanups.push(async () => {
        const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
        try {
          await dropper.unsafe(`drop database if exists "${name}" with (force)`);
        } finally {
          await dropper.end();
        }
      });
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return { kind, url: url.toString() };
    },
    async dropAll() {
      for (const cleanup of cleanups.splice(0).reverse()) {
        await cleanup().catch((error: unknown) => {
          process.stderr.write(`bench: cleanup failed: ${error instanceof Error ? error.message : error}\n`);
        });
      }
    },
  };
}
