import { formatCount } from "../../lib/format";
import { Link } from "../../lib/router";
import { TableScroll } from "../../ui/TableScroll";
import { OUTCOMES, type Usage, type UsageRangeId } from "./usage-range";
import { usageHref } from "./usage-url";

/**
 * The range's verifications per key (the server's `keys` rows, busiest first): each key's name links to
 * the view filtered to it, and each outcome has its column.
 */
export function UsageKeysTable({ keys, rangeId }: { keys: Usage["keys"]; rangeId: UsageRangeId }) {
  if (keys.length === 0) return null;
  return (
    <section aria-labelledby="usage-keys-title" className="usage-keys">
      <h2 id="usage-keys-title">By key</h2>
      <TableScroll label="Verifications by key">
        <table className="table table-numbers">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">All</th>
              {OUTCOMES.map((outcome) => (
                <th key={outcome.field} scope="col">
                  {outcome.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.keyId}>
                <th scope="row">
                  <Link to={usageHref({ rangeId, keyId: key.keyId })}>{key.name}</Link>
                </th>
                <td>{formatCount(key.requests)}</td>
                {OUTCOMES.map((outcome) => (
                  <td key={outcome.field}>{formatCount(key[outcome.field])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
