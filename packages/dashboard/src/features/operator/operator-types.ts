import type { RouterInputs, RouterOutputs } from "@keyport/server";

/** The operator API's shapes, as the server's router declares them (no restated schema). */
export type OperatorWallet = RouterOutputs["operator"]["wallets"]["list"]["wallets"][number];
export type WalletDetail = RouterOutputs["operator"]["wallets"]["get"];
export type WalletSort = Exclude<
  Extract<RouterInputs["operator"]["wallets"]["list"], { sort?: unknown }>["sort"],
  undefined
>;
export type OperatorToken = RouterOutputs["operator"]["tokens"]["list"]["tokens"][number];
export type OperatorScope = RouterInputs["operator"]["tokens"]["create"]["scopes"][number];
export type OperatorEvent = RouterOutputs["operator"]["audit"]["list"]["events"][number];
export type OperatorActor = OperatorEvent["actor"];
export type OperatorPayment = RouterOutputs["operator"]["payments"]["list"]["payments"][number];
export type PaymentTotals = RouterOutputs["operator"]["payments"]["totals"];
export type DeploymentUsage = RouterOutputs["operator"]["usage"]["get"];
