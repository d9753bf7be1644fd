// Operator tokens from the server's machine (docs/operator.md#tokens), against the database the server
// is configured with: the way to make the first token before any operator session exists.
//
//   pnpm operator-token create --name NAME --scope SCOPE [--scope SCOPE ...] [--expires 2030-01-01T00:00:00Z]
//   pnpm operator-token list
//   pnpm operator-token revoke opt_...
//
// (`pnpm --filter @keyport/server operator-token ...` is the same.) Settings come from env.ts, as the
// server reads them; with DATA_DIR unset the embedded database is the one `pnpm start` uses (the
// project's .data). The embedded database must not be open in a running server (it is refused).
// The token is printed once, on stdout alone; everything else goes to stderr.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { createDatabase } from "../src/db/database.js";
import { initialisePgliteFolder } from "../src/db/pglite-init.js";
import { loadEnv } from "../src/env.js";
import { createOperatorToken, listOperatorTokens, revokeOperatorToken } from "../src/operator/token-store.js";
import { createOperatorTokenInput, OPERATOR_SCOPES } from "../src/schemas/operator.js";

const USAGE = `usage:
  operator-token create --name NAME --scope SCOPE [--scope SCOPE ...] [--expires ISO-8601]
  operator-token list
  operator-token revoke opt_...
scopes: ${OPERATOR_SCOPES.join(", ")}`;

const PROJECT_DATA = fileURLToPath(new URL("../../../.data", import.meta.url));

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    scope: { type: "string", multiple: true },
    expires: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
const [command, argument] = positionals;
if (values.help === true || command === undefined) fail(USAGE);

const env = loadEnv();
const dataDir = process.env.DATA_DIR === undefined ? PROJECT_DATA : resolve(env.DATA_DIR);
if (env.DATABASE_URL === undefined) await initialisePgliteFolder(dataDir);
const database = await createDatabase(env.DATABASE_URL, dataDir).catch((error: unknown) =>
  fail(error instanceof Error ? error.message : String(error)),
);
process.stderr.write(
  `database: ${env.DATABASE_URL === undefined ? `embedded, in ${resolve(dataDir, "pglite")}` : database.kind}\n`,
);
const actor = { type: "cli" as const };
const now = new Date();
try {
  switch (command) {
    case "create": {
      const parsed = createOperatorTokenInput.safeParse({
        name: values.name,
        scopes: values.scope ?? [],
        expiresAt: values.expires,
      });
      if (!parsed.success) fail(`${z.prettifyError(parsed.error)}\n${USAGE}`);
      const { token, secret } = await createOperatorToken(
        database.db,
        env.KEY_PREFIX,
        parsed.data,
        actor,
        now,
      );
      process.stderr.write(
        `created ${token.id} "${token.name}" with ${token.scopes.join(", ")}; the token (shown once):\n`,
      );
      process.stdout.write(`${secret}\n`);
      break;
    }
    case "list": {
      let after: string | null = null;
      do {
        const page = await listOperatorTokens(database.db, { limit: 100, after }, now);
        for (const token of page.tokens)
          process.stdout.write(
            `${token.id}  ${token.status.padEnd(7)}  ${token.start}…  ${token.name}  [${token.scopes.join(" ")}]\n`,
          );
        after = page.nextCursor;
      } while (after !== null);
      break;
    }
    case "revoke": {
      if (argument === undefined || !/^opt_[0-9A-Za-z]{22}$/.test(argument)) fail(USAGE);
      const token = await revokeOperatorToken(database.db, argument, actor, now);
      if (token === null) fail(`no operator token ${argument}`);
      process.stderr.write(`revoked ${token.id} "${token.name}"\n`);
      break;
    }
    default:
      fail(USAGE);
  }
} finally {
  await database.close();
}
