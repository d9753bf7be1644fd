/**
 * The owner of the deployment's own endpoints (docs/operator.md#webhooks), in `webhooks.wallet` where a
 * wallet's endpoints hold its address. No wallet address can equal it (addresses are `0x` + 40 hex),
 * so every wallet query, scoped to an address, never sees these endpoints; the delivery claim counts
 * them as one owner, as it counts a wallet (docs/webhooks.md, "Fairness").
 */
export const OPERATOR_OWNER = "operator";
