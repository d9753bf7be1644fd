import { formatCount } from "../../lib/format";
import { OUTCOMES, type Usage } from "./usage-range";

/** The range's totals as text: all verifications, then each outcome. */
export function UsageTotals({ totals }: { totals: Usage["totals"] }) {
  return (
    <dl className="totals">
      <div className="total">
        <dt>All verifications</dt>
        <dd>{formatCount(totals.requests)}</dd>
      </div>
      {OUTCOMES.map((outcome) => (
        <div key={outcome.field} className="total">
          <dt>{outcome.label}</dt>
          <dd>{formatCount(totals[outcome.field])}</dd>
        </div>
      ))}
    </dl>
  );
}
