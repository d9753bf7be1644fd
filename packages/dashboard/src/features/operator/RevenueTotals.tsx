import { formatCount } from "../../lib/format";
import type { PaymentTotals } from "./operator-types";
import { amountWords, type PaymentToken } from "./token-amount";

/** A range's revenue as text, one line per (network, asset): the amount, payments and credits sold. */
export function RevenueTotals({
  totals,
  token,
  empty,
}: {
  totals: PaymentTotals["totals"];
  token: PaymentToken | undefined;
  empty: string;
}) {
  if (totals.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="plain-list revenue-totals">
      {totals.map((total) => (
        <li key={`${total.network} ${total.asset}`}>
          <strong>{amountWords(total, token)}</strong>
          <span className="muted">
            {" "}
            from {formatCount(total.payments)} {total.payments === 1 ? "payment" : "payments"},{" "}
            {formatCount(total.credits)} credits
          </span>
        </li>
      ))}
    </ul>
  );
}
