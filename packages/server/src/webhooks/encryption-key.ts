import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Env } from "../env.js";

const KEY_FILE = "webhooks-encryption.key";

/**
 * The key that encrypts webhook secrets at rest (webhooks/secret.ts, docs/webhooks.md):
 * WEBHOOKS_ENCRYPTION_KEY when set (env.ts requires it on PostgreSQL, so the key never lives in the
 * database it protects); on the embedded database, a key generated once into DATA_DIR beside the
 * data it encrypts (mode 0600); with `memory:`, a fresh key for the process's life.
 */
export async function resolveWebhooksKey(
  env: Pick<Env, "WEBHOOKS_ENCRYPTION_KEY" | "DATABASE_URL" | "DATA_DIR">,
): Promise<Buffer> {
  if (env.WEBHOOKS_ENCRYPTION_KEY !== undefined) return Buffer.from(env.WEBHOOKS_ENCRYPTION_KEY, "base64");
  if (env.DATABASE_URL !== undefined) return randomBytes(32);
  const path = join(env.DATA_DIR, KEY_FILE);
  const existing = await readFile(path, "utf8").catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing !== undefined) {
    const key = Buffer.from(existing.trim(), "base64");
    if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
    return key;
  }
  const key = randomBytes(32);
  await mkdir(env.DATA_DIR, { recursive: true });
  // `wx`: two processes starting on one folder cannot both write; the loser reads the winner's.
  const written = await writeFile(path, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" }).then(
    () => true,
    (error: unknown) => {
      if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
      throw error;
    },
  );
  return written ? key : resolveWebhooksKey(env);
}
