import { useQuery } from "@tanstack/react-query";
import { errorStatus } from "../../lib/errors";
import { checksummed, formatCount, formatDateTime } from "../../lib/format";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { CopyButton } from "../../ui/CopyButton";
import { RelativeTime } from "../../ui/RelativeTime";
import { ErrorMessage, Loading } from "../../ui/Status";
import { useNow } from "../../ui/use-now";
import { IssueKeyDialog } from "./IssueKeyDialog";
import { SuspendWalletButton } from "./SuspendWalletButton";
import { WalletAudit, WalletPayments, WalletUsage } from "./WalletActivity";
import { WalletKeys } from "./WalletKeys";

/**
 * One wallet (`/operator/wallets/:address`): what the deployment knows of it, Suspend/Unsuspend,
 * Issue key, then its keys (each with Revoke), usage, payments and audit.
 */
export function WalletPage({ address }: { address: string }) {
  const wallet = useQuery(trpc.operator.wallets.get.queryOptions({ wallet: address }));
  const now = useNow();
  const shown = checksummed(address);

  if (wallet.isPending) return <Loading label="Loading wallet…" />;
  if (wallet.isError) {
    if (errorStatus(wallet.error) === 404) {
      return (
        <section>
          <h1>Wallet not found</h1>
          <p>
            This deployment has never seen <code className="break">{shown}</code> sign in or hold a key.{" "}
            <Link to="/operator/wallets">Back to the wallets</Link>
          </p>
        </section>
      );
    }
    return <ErrorMessage error={wallet.error} onRetry={() => wallet.refetch()} />;
  }
  const { wallet: found, keys, sessions } = wallet.data;
  return (
    <section aria-labelledby="wallet-title" className="wallet-page">
      <p className="breadcrumb">
        <Link to="/operator/wallets">Wallets</Link>
      </p>
      <h1 id="wallet-title">
        Wallet <span className="break heading-address">{shown}</span>
        {found.suspended === null ? null : <span className="badge badge-revoked">Suspended</span>}
      </h1>
      <div className="view-header">
        <CopyButton text={shown} label="Copy address" />
        <div className="row-actions">
          <IssueKeyDialog wallet={found.address} />
          <SuspendWalletButton wallet={found} />
        </div>
      </div>
      {found.suspended === null ? null : (
        <p className="notice-inline" role="note">
          Suspended {formatDateTime(found.suspended.at)}: {found.suspended.reason}
        </p>
      )}
      <dl className="details">
        <div>
          <dt>First seen</dt>
          <dd>
            <RelativeTime value={found.createdAt} now={now} empty="never" />
          </dd>
        </div>
        <div>
          <dt>Last active</dt>
          <dd>
            <RelativeTime value={found.lastActiveAt} now={now} empty="never" />
          </dd>
        </div>
        <div>
          <dt>Last sign-in</dt>
          <dd>
            <RelativeTime value={found.lastSignInAt} now={now} empty="never" />
          </dd>
        </div>
        <div>
          <dt>Keys</dt>
          <dd>
            {formatCount(keys.active)} active of {formatCount(keys.total)}
          </dd>
        </div>
        <div>
          <dt>Live sessions</dt>
          <dd>{formatCount(sessions)}</dd>
        </div>
      </dl>
      <WalletKeys wallet={found.address} />
      <WalletUsage wallet={found.address} />
      <WalletPayments wallet={found.address} />
      <WalletAudit wallet={found.address} />
    </section>
  );
}
