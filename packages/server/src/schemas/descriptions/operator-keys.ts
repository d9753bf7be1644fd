/** The OpenAPI descriptions of routers/operator/keys.ts's operations, by procedure (docs/api.md says the same for people). */
export const operatorKeysDescriptions = {
  issue:
    "Creates a key for the wallet in the path with the owner's create body (`POST /api-keys`), plus an optional `reason`: how an operator who sells by other means (a card checkout, a partnership) hands a wallet its key. The secret is in the answer once (201). The key is the wallet's like any other (it lists, rolls, updates and revokes it) and reads `issuedBy: { operator: true }`; the wallet's trail and webhooks get `key.created` with `actor: \"operator\"`, the operator trail `key.issued`. The wallet's active-key cap applies (409). Scope `keys:issue`.",
} as const;
