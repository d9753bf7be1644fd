import { keyId } from "@keyport/server/schemas";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { errorStatus } from "../../lib/errors";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { ErrorMessage, Loading } from "../../ui/Status";
import { useNow } from "../../ui/use-now";
import { TopUpDialog } from "../top-up/TopUpDialog";
import { EditKeyDialog } from "./EditKeyDialog";
import { KeyActivity } from "./KeyActivity";
import { KeyDetails } from "./KeyDetails";
import { KeyLimitUse } from "./KeyLimitUse";
import { KeyUsage } from "./KeyUsage";
import { keyStatusWords } from "./key-status";
import { RecentVerifications } from "./RecentVerifications";
import { ReportLeakDialog } from "./ReportLeakDialog";
import { RevokeKeyDialog } from "./RevokeKeyDialog";
import { RollKeyDialog } from "./RollKeyDialog";

/**
 * `/keys/:id`: one key of the wallet (`keys.get`), its details, its limits' live use, usage chart, activity and recent
 * verifications, with Top up (a metered key), Edit, Roll, Revoke and Report leaked. An id the wallet does not hold
 * (the server's 404, the same for another wallet's key) or one that is not a key id says so, with a
 * way back.
 */
export function KeyPage({ wallet, id }: { wallet: string; id: string }) {
  const wellFormed = keyId.safeParse(id).success;
  const key = useQuery({ ...trpc.keys.get.queryOptions({ id }), enabled: wellFormed });
  const now = useNow();
  const titleId = useId();
  if (!wellFormed || (key.isError && errorStatus(key.error) === 404)) {
    return <KeyNotFound id={id} titleId={titleId} />;
  }
  if (key.isPending) return <Loading label="Loading key…" />;
  if (key.isError) return <ErrorMessage error={key.error} onRetry={() => key.refetch()} />;
  const { apiKey } = key.data;
  const canEdit = apiKey.status !== "revoked" && apiKey.revokedAt === null;
  const canRoll = apiKey.status === "active" && apiKey.revokedAt === null;
  const canTopUp = canRoll && apiKey.credits !== null;
  return (
    <section aria-labelledby={titleId} className="key-page">
      <p className="breadcrumb">
        <Link to="/keys">← Keys</Link>
      </p>
      <div className="view-header">
        <h1 id={titleId}>
          {apiKey.name} <span className={`badge badge-${apiKey.status}`}>{keyStatusWords(apiKey, now)}</span>
        </h1>
        <div className="row-actions">
          {canTopUp ? <TopUpDialog apiKey={apiKey} describedBy={titleId} /> : null}
          {canEdit ? <EditKeyDialog apiKey={apiKey} describedBy={titleId} /> : null}
          {canRoll ? <RollKeyDialog apiKey={apiKey} describedBy={titleId} /> : null}
          {apiKey.status === "active" ? <RevokeKeyDialog apiKey={apiKey} describedBy={titleId} /> : null}
          {apiKey.status === "active" ? <ReportLeakDialog apiKey={apiKey} describedBy={titleId} /> : null}
        </div>
      </div>
      <KeyDetails apiKey={apiKey} now={now} />
      <KeyLimitUse keyId={apiKey.id} />
      <KeyUsage wallet={wallet} keyId={apiKey.id} />
      <RecentVerifications keyId={apiKey.id} />
      <KeyActivity wallet={wallet} keyId={apiKey.id} />
    </section>
  );
}

function KeyNotFound({ id, titleId }: { id: string; titleId: string }) {
  return (
    <section aria-labelledby={titleId}>
      <h1 id={titleId}>Key not found</h1>
      <p>
        This wallet has no key with the id <code>{id}</code>. <Link to="/keys">Back to your keys</Link>.
      </p>
    </section>
  );
}
