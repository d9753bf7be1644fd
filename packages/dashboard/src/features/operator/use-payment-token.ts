import { useMeta } from "../../lib/meta";
import type { PaymentToken } from "./token-amount";

/** The server's payment token as `/api/meta` names it, undefined while payments are off or unknown. */
export function usePaymentToken(): PaymentToken | undefined {
  const { payments } = useMeta();
  if (payments === null || payments === undefined) return undefined;
  return { network: payments.network, asset: payments.asset, decimals: payments.decimals };
}
