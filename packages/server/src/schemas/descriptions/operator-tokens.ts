import { MAX_ACTIVE_OPERATOR_TOKENS } from "../operator.js";

/** The OpenAPI descriptions of routers/operator/tokens.ts's operations, by procedure (docs/api.md says the same for people). */
export const operatorTokensDescriptions = {
  create: `A token for the operator's own scripts and backends, sent as \`Authorization: Bearer <KEY_PREFIX>o_...\` to the operator API only (anywhere else it is 401). \`secret\` is shown once and stored only as its SHA-256. \`scopes\` decide what it may do; an unknown scope is 400. At most ${MAX_ACTIVE_OPERATOR_TOKENS} live tokens (409 past it). Only an operator session creates tokens: a token is 403. Recorded in the operator audit trail as \`token.created\`.`,
  list: "Every operator token, newest first, live or not (`status`), with its scopes, who created it, its expiry and last use (to within a minute); never a secret or hash. Paginated: `limit` 1-100 (default 50), `nextCursor` back as `cursor`.",
} as const;
