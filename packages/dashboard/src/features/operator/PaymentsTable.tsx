import { checksummed, formatCount, formatDateTime, shortAddress } from "../../lib/format";
import { Link } from "../../lib/router";
import { CopyButton } from "../../ui/CopyButton";
import { TableScroll } from "../../ui/TableScroll";
import type { OperatorPayment } from "./operator-types";
import { paymentAmountWords } from "./token-amount";
import { usePaymentToken } from "./use-payment-token";

/** Settled payments, newest first: when, who paid, how much, for what, and the transaction. */
export function PaymentsTable({
  payments,
  labelledBy,
  showWallet,
}: {
  payments: readonly OperatorPayment[];
  labelledBy: string;
  showWallet: boolean;
}) {
  const token = usePaymentToken();
  return (
    <TableScroll label="Payments table">
      <table className="table card-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Settled</th>
            {showWallet ? <th scope="col">Wallet</th> : null}
            <th scope="col">Amount</th>
            <th scope="col">Credits</th>
            <th scope="col">Key</th>
            <th scope="col">Payer</th>
            <th scope="col">Transaction</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id}>
              <th scope="row">
                <time dateTime={payment.settledAt.toISOString()}>{formatDateTime(payment.settledAt)}</time>
              </th>
              {showWallet ? (
                <td data-label="Wallet">
                  <Link to={`/operator/wallets/${payment.wallet}`} title={checksummed(payment.wallet)}>
                    {shortAddress(payment.wallet)}
                  </Link>
                </td>
              ) : null}
              <td data-label="Amount" className="nowrap">
                {paymentAmountWords(payment, token)}
              </td>
              <td data-label="Credits">{formatCount(payment.credits)}</td>
              <td data-label="Key">{payment.keyId === null ? "—" : <code>{payment.keyId}</code>}</td>
              <td data-label="Payer">
                <code title={checksummed(payment.payer)}>{shortAddress(payment.payer)}</code>
              </td>
              <td data-label="Transaction">
                {payment.transaction === null ? (
                  "—"
                ) : (
                  <>
                    <code title={payment.transaction}>{`${payment.transaction.slice(0, 10)}…`}</code>{" "}
                    <CopyButton text={payment.transaction} label="Copy transaction hash" />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
