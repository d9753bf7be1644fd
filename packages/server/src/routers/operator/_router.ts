import { router } from "../../trpc.js";
import { operatorAuditRouter } from "./audit.js";
import { operatorKeysRouter } from "./keys.js";
import { operatorPaymentsRouter } from "./payments.js";
import { operatorPlansRouter } from "./plans.js";
import { operatorTokensRouter } from "./tokens.js";
import { operatorUsageRouter } from "./usage.js";
import { operatorWalletsRouter } from "./wallets.js";
import { operatorWebhooksRouter } from "./webhooks.js";

/** The operator API (docs/operator.md): tRPC `operator.*`, REST under `/operator/...`. */
export const operatorRouter = router({
  tokens: operatorTokensRouter,
  audit: operatorAuditRouter,
  wallets: operatorWalletsRouter,
  keys: operatorKeysRouter,
  payments: operatorPaymentsRouter,
  usage: operatorUsageRouter,
  plans: operatorPlansRouter,
  webhooks: operatorWebhooksRouter,
});
