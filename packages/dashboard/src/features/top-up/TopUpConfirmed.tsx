import { checksummed, formatCount, shortAddress } from "../../lib/format";
import { CopyButton } from "../../ui/CopyButton";
import type { TopUpResult } from "./run-top-up";
import { TopUpSteps } from "./TopUpSteps";

/** A confirmed top-up: the steps done, the credits added, the key's new balance and the transaction. */
export function TopUpConfirmed({ answer, onDone }: { answer: TopUpResult; onDone: () => void }) {
  const { apiKey, topUp } = answer;
  return (
    <div className="form">
      <TopUpSteps current="confirmed" failed={false} />
      <p role="status">
        {formatCount(topUp.credits)} credits added for {topUp.amount} USDC.{" "}
        {apiKey.credits === null
          ? null
          : `The key now holds ${formatCount(apiKey.credits.remaining)} credits (${formatCount(apiKey.credits.purchased)} purchased).`}
      </p>
      <dl className="details">
        <div>
          <dt>Paid from</dt>
          <dd>
            <code title={checksummed(topUp.payer)}>{shortAddress(topUp.payer)}</code>
          </dd>
        </div>
        <div>
          <dt>Transaction</dt>
          <dd>
            <code title={topUp.transaction}>{shortAddress(topUp.transaction)}</code>{" "}
            <CopyButton text={topUp.transaction} label="Copy transaction hash" />
          </dd>
        </div>
      </dl>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
