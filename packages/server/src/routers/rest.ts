import type { z } from "zod";
import type { HttpPolicy } from "../procedure-meta.js";
import {
  createKeyInput,
  getKeyInput,
  listKeysInput,
  reportLeakInput,
  revokeKeyInput,
  rollKeyInput,
  updateKeyInput,
} from "../schemas/api-key.js";
import { endSessionInput, verifyInput } from "../schemas/auth.js";
import { noInput } from "../schemas/common.js";
import { introspectKeyInput } from "../schemas/introspection.js";
import { listEventsInput } from "../schemas/key-event.js";
import { keyRateLimitUseInput } from "../schemas/key-rate-limit-use.js";
import { keyVerificationsInput } from "../schemas/key-verifications.js";
import {
  createOperatorTokenInput,
  issueKeyInput,
  listOperatorEventsInput,
  listOperatorTokensInput,
  revokeAnyKeyInput,
  revokeOperatorTokenInput,
  suspendWalletInput,
  unsuspendWalletInput,
} from "../schemas/operator.js";
import { listPaymentsInput, paymentTotalsInput } from "../schemas/operator-payments.js";
import { deploymentUsageInput } from "../schemas/operator-usage.js";
import { getWalletInput, listWalletsInput } from "../schemas/operator-wallets.js";
import {
  createOperatorWebhookInput,
  listOperatorWebhooksInput,
  operatorWebhookInput,
  redeliverOperatorWebhookInput,
  updateOperatorWebhookInput,
} from "../schemas/operator-webhooks.js";
import {
  getWalletAccountInput,
  operatorListPlansInput,
  planIdInput,
  planInput,
  setWalletPlanInput,
  updatePlanInput,
} from "../schemas/plans.js";
import { topUpInput } from "../schemas/top-up.js";
import { usageInput } from "../schemas/usage.js";
import { verifyKeyInput } from "../schemas/verification.js";
import { getWalletLimitsInput, setWalletLimitsInput } from "../schemas/wallet-limits.js";
import {
  createWebhookInput,
  listWebhooksInput,
  redeliverWebhookInput,
  updateWebhookInput,
  webhookInput,
} from "../schemas/webhook.js";
import type { AppCaller } from "./_app.js";
import { authHttp } from "./auth.js";
import { eventsHttp } from "./events.js";
import { introspectHttp } from "./key-introspection.js";
import { keyRateLimitUseHttp } from "./key-rate-limit-use.js";
import { keyVerificationsHttp } from "./key-verifications.js";
import { keysHttp } from "./keys.js";
import { limitsHttp } from "./limits.js";
import { metaHttp } from "./meta.js";
import { operatorAuditHttp } from "./operator/audit.js";
import { operatorKeysHttp } from "./operator/keys.js";
import { operatorPaymentsHttp } from "./operator/payments.js";
import { operatorPlansHttp } from "./operator/plans.js";
import { operatorTokensHttp } from "./operator/tokens.js";
import { operatorUsageHttp } from "./operator/usage.js";
import { walletSuspensionHttp } from "./operator/wallet-suspension.js";
import { operatorWalletsHttp } from "./operator/wallets.js";
import { operatorWebhooksHttp } from "./operator/webhooks.js";
import { plansHttp } from "./plans.js";
import { topUpHttp } from "./top-up.js";
import { usageHttp } from "./usage.js";
import { webhooksHttp } from "./webhooks.js";

/** One REST route: a procedure's HTTP policy, its input schema, and how to call it. */
export type RestRoute = HttpPolicy & {
  /** The procedure's own input schema (the REST mapping reads which query fields are numbers). */
  input: z.ZodType;
  /**
   * Calls the procedure when `raw` passes its input schema (the procedure then parses it again,
   * exactly as over /trpc); null, calling nothing, when it does not.
   */
  call(caller: AppCaller, raw: unknown): Promise<unknown> | null;
};

function isInput<S extends z.ZodType>(schema: S, value: unknown): value is z.input<S> {
  return schema.safeParse(value).success;
}

/**
 * Pairs a procedure's HTTP policy with its input schema and its caller method. The compiler checks
 * `call` against `AppRouter`: the schema's input type must be what the procedure takes.
 */
function restRoute<S extends z.ZodType>(
  policy: HttpPolicy,
  input: S,
  call: (caller: AppCaller, input: z.input<S>) => Promise<unknown>,
): RestRoute {
  return { ...policy, input, call: (caller, raw) => (isInput(input, raw) ? call(caller, raw) : null) };
}

/** Every procedure served as REST; the REST mapping and the OpenAPI document both read this list. */
export const REST_ROUTES: readonly RestRoute[] = [
  restRoute(authHttp.nonce, noInput, (caller, input) => caller.auth.nonce(input)),
  restRoute(authHttp.verify, verifyInput, (caller, input) => caller.auth.verify(input)),
  restRoute(authHttp.session, noInput, (caller, input) => caller.auth.session(input)),
  restRoute(authHttp.logout, noInput, (caller, input) => caller.auth.logout(input)),
  restRoute(authHttp.sessions, noInput, (caller, input) => caller.auth.sessions(input)),
  restRoute(authHttp.endSession, endSessionInput, (caller, input) => caller.auth.endSession(input)),
  restRoute(authHttp.endOtherSessions, noInput, (caller, input) => caller.auth.endOtherSessions(input)),
  restRoute(keysHttp.create, createKeyInput, (caller, input) => caller.keys.create(input)),
  // One shape: a segment that is a key id reads that key, any other lists a wallet's keys (http/rest.ts).
  restRoute(keysHttp.get, getKeyInput, (caller, input) => caller.keys.get(input)),
  restRoute(keysHttp.list, listKeysInput, (caller, input) => caller.keys.list(input)),
  restRoute(keysHttp.update, updateKeyInput, (caller, input) => caller.keys.update(input)),
  restRoute(keysHttp.revoke, revokeKeyInput, (caller, input) => caller.keys.revoke(input)),
  restRoute(keysHttp.roll, rollKeyInput, (caller, input) => caller.keys.roll(input)),
  restRoute(topUpHttp.topUp, topUpInput, (caller, input) => caller.keys.topUp(input)),
  restRoute(keysHttp.verify, verifyKeyInput, (caller, input) => caller.keys.verify(input)),
  restRoute(introspectHttp, introspectKeyInput, (caller, input) => caller.keys.introspect(input)),
  restRoute(keyVerificationsHttp, keyVerificationsInput, (caller, input) => caller.keys.verifications(input)),
  restRoute(keyRateLimitUseHttp, keyRateLimitUseInput, (caller, input) => caller.keys.rateLimitUse(input)),
  restRoute(keysHttp.reportLeak, reportLeakInput, (caller, input) => caller.keys.reportLeak(input)),
  restRoute(usageHttp.get, usageInput, (caller, input) => caller.usage.get(input)),
  restRoute(eventsHttp.list, listEventsInput, (caller, input) => caller.events.list(input)),
  restRoute(limitsHttp.get, getWalletLimitsInput, (caller, input) => caller.limits.get(input)),
  restRoute(limitsHttp.set, setWalletLimitsInput, (caller, input) => caller.limits.set(input)),
  restRoute(metaHttp, noInput, (caller, input) => caller.meta(input)),
  restRoute(plansHttp.list, noInput, (caller, input) => caller.plans.list(input)),
  restRoute(plansHttp.wallet, getWalletAccountInput, (caller, input) => caller.wallets.get(input)),
  restRoute(webhooksHttp.list, listWebhooksInput, (caller, input) => caller.webhooks.list(input)),
  restRoute(webhooksHttp.create, createWebhookInput, (caller, input) => caller.webhooks.create(input)),
  restRoute(webhooksHttp.update, updateWebhookInput, (caller, input) => caller.webhooks.update(input)),
  restRoute(webhooksHttp.delete, webhookInput, (caller, input) => caller.webhooks.delete(input)),
  restRoute(webhooksHttp.rotateSecret, webhookInput, (caller, input) => caller.webhooks.rotateSecret(input)),
  restRoute(webhooksHttp.test, webhookInput, (caller, input) => caller.webhooks.test(input)),
  restRoute(webhooksHttp.deliveries, webhookInput, (caller, input) => caller.webhooks.deliveries(input)),
  restRoute(webhooksHttp.redeliver, redeliverWebhookInput, (caller, input) =>
    caller.webhooks.redeliver(input),
  ),
  // The operator API (docs/operator.md).
  restRoute(operatorTokensHttp.create, createOperatorTokenInput, (caller, input) =>
    caller.operator.tokens.create(input),
  ),
  restRoute(operatorTokensHttp.list, listOperatorTokensInput, (caller, input) =>
    caller.operator.tokens.list(input),
  ),
  restRoute(operatorTokensHttp.revoke, revokeOperatorTokenInput, (caller, input) =>
    caller.operator.tokens.revoke(input),
  ),
  restRoute(operatorAuditHttp.list, listOperatorEventsInput, (caller, input) =>
    caller.operator.audit.list(input),
  ),
  restRoute(operatorWalletsHttp.list, listWalletsInput, (caller, input) =>
    caller.operator.wallets.list(input),
  ),
  restRoute(operatorWalletsHttp.get, getWalletInput, (caller, input) => caller.operator.wallets.get(input)),
  restRoute(operatorWalletsHttp.keys, listKeysInput, (caller, input) => caller.operator.wallets.keys(input)),
  restRoute(operatorWalletsHttp.events, listEventsInput, (caller, input) =>
    caller.operator.wallets.events(input),
  ),
  restRoute(operatorWalletsHttp.usage, usageInput, (caller, input) => caller.operator.wallets.usage(input)),
  restRoute(walletSuspensionHttp.suspend, suspendWalletInput, (caller, input) =>
    caller.operator.wallets.suspend(input),
  ),
  restRoute(walletSuspensionHttp.unsuspend, unsuspendWalletInput, (caller, input) =>
    caller.operator.wallets.unsuspend(input),
  ),
  restRoute(operatorKeysHttp.revoke, revokeAnyKeyInput, (caller, input) =>
    caller.operator.keys.revoke(input),
  ),
  restRoute(operatorKeysHttp.issue, issueKeyInput, (caller, input) => caller.operator.keys.issue(input)),
  restRoute(operatorPaymentsHttp.list, listPaymentsInput, (caller, input) =>
    caller.operator.payments.list(input),
  ),
  restRoute(operatorUsageHttp.get, deploymentUsageInput, (caller, input) => caller.operator.usage.get(input)),
  restRoute(operatorPaymentsHttp.totals, paymentTotalsInput, (caller, input) =>
    caller.operator.payments.totals(input),
  ),
  restRoute(operatorPlansHttp.list, operatorListPlansInput, (caller, input) =>
    caller.operator.plans.list(input),
  ),
  restRoute(operatorPlansHttp.create, planInput, (caller, input) => caller.operator.plans.create(input)),
  restRoute(operatorPlansHttp.update, updatePlanInput, (caller, input) =>
    caller.operator.plans.update(input),
  ),
  restRoute(operatorPlansHttp.archive, planIdInput, (caller, input) => caller.operator.plans.archive(input)),
  restRoute(operatorPlansHttp.setWalletPlan, setWalletPlanInput, (caller, input) =>
    caller.operator.plans.setWalletPlan(input),
  ),
  restRoute(operatorPlansHttp.walletPlan, getWalletAccountInput, (caller, input) =>
    caller.operator.plans.walletPlan(input),
  ),
  restRoute(operatorWebhooksHttp.list, listOperatorWebhooksInput, (caller, input) =>
    caller.operator.webhooks.list(input),
  ),
  restRoute(operatorWebhooksHttp.create, createOperatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.create(input),
  ),
  restRoute(operatorWebhooksHttp.get, operatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.get(input),
  ),
  restRoute(operatorWebhooksHttp.update, updateOperatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.update(input),
  ),
  restRoute(operatorWebhooksHttp.delete, operatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.delete(input),
  ),
  restRoute(operatorWebhooksHttp.rotateSecret, operatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.rotateSecret(input),
  ),
  restRoute(operatorWebhooksHttp.test, operatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.test(input),
  ),
  restRoute(operatorWebhooksHttp.deliveries, operatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.deliveries(input),
  ),
  restRoute(operatorWebhooksHttp.redeliver, redeliverOperatorWebhookInput, (caller, input) =>
    caller.operator.webhooks.redeliver(input),
  ),
];
