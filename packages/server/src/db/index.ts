// The database layer: open + migrate, and the tables.
export { createDatabase, type Database, type Db, type Driver } from "./database.js";
export { type ApiKeyRow, apiKeys, sessions, siweNonces } from "./schema/index.js";
