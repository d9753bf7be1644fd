import { defineConfig } from "drizzle-kit";

// `pnpm --filter @keyport/server db:generate` writes a new migration into drizzle/ after a schema change.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./drizzle",
});
