import { checksummed } from "../../lib/format";
import type {
  OperatorActor,
  OperatorEvent,
  OperatorScope,
  OperatorToken,
  WalletSort,
} from "./operator-types";

/** The wallets table's sorts, in the order the select offers them. */
export const WALLET_SORTS: readonly { value: WalletSort; label: string }[] = [
  { value: "lastActive", label: "Last active" },
  { value: "activeKeys", label: "Active keys" },
];

/** Every scope a token may hold, with what it allows in words (docs/operator.md#scopes). */
export const SCOPES = [
  { scope: "wallets:read", label: "Read wallets and the audit trail" },
  { scope: "wallets:write", label: "Suspend and unsuspend wallets" },
  { scope: "keys:write", label: "Revoke any key" },
  { scope: "keys:issue", label: "Issue keys to wallets" },
  { scope: "payments:read", label: "Read payments and export them" },
  { scope: "usage:read", label: "Read usage" },
  { scope: "plans:write", label: "Create and change plans" },
  { scope: "credits:write", label: "Grant credits" },
] as const satisfies readonly { scope: OperatorScope; label: string }[];

// The compiler keeps the list complete: a scope added to the server fails here until it is worded.
type Unworded = Exclude<OperatorScope, (typeof SCOPES)[number]["scope"]>;
const everyScopeWorded: [Unworded] extends [never] ? true : never = true;
void everyScopeWorded;

const ACTION_WORDS: Record<OperatorEvent["action"], string> = {
  "token.created": "Token created",
  "token.revoked": "Token revoked",
  "token.leaked": "Token found in public",
  "wallet.suspended": "Wallet suspended",
  "wallet.unsuspended": "Wallet unsuspended",
  "key.revoked": "Key revoked",
  "key.issued": "Key issued",
  "webhook.created": "Webhook endpoint added",
  "webhook.updated": "Webhook endpoint changed",
  "webhook.deleted": "Webhook endpoint deleted",
  "plan.created": "Plan created",
  "plan.updated": "Plan changed",
  "plan.archived": "Plan archived",
  "wallet.plan_changed": "Wallet's plan changed",
};

/** An operator action in words: "Key issued". */
export function actionWords(action: OperatorEvent["action"]): string {
  return ACTION_WORDS[action];
}

/** Who acted, in words: "0xAbC…" (an operator wallet), "token “billing job”", "the command line". */
export function actorWords(actor: OperatorActor): string {
  switch (actor.type) {
    case "wallet":
      return checksummed(actor.address);
    case "token":
      return `token “${actor.name}”`;
    case "cli":
      return "the command line";
    case "leak_report":
      return `a leak report (${actor.source})`;
  }
}

/** A token's scopes in words, joined: "payments:read, usage:read". */
export function scopesWords(scopes: readonly OperatorScope[]): string {
  return scopes.length === SCOPES.length ? "All scopes" : scopes.join(", ");
}

/** A token's status in words, with the time that decided it when there is one. */
export function tokenStatusWords(token: Pick<OperatorToken, "status" | "leakedAt">): string {
  if (token.status === "revoked") return token.leakedAt === null ? "Revoked" : "Revoked: found in public";
  if (token.status === "expired") return "Expired";
  return "Active";
}
