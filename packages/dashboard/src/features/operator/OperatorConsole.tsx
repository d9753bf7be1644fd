import { Link } from "../../lib/router";
import { AuditPage } from "./AuditPage";
import { OverviewPage } from "./OverviewPage";
import { PaymentsPage } from "./PaymentsPage";
import { TokensPage } from "./TokensPage";
import { WalletPage } from "./WalletPage";
import { WalletsPage } from "./WalletsPage";

const PAGES = [
  { to: "/operator", label: "Overview" },
  { to: "/operator/wallets", label: "Wallets" },
  { to: "/operator/payments", label: "Payments" },
  { to: "/operator/tokens", label: "Tokens" },
  { to: "/operator/audit", label: "Audit" },
] as const;

const WALLET_PATH = /^\/operator\/wallets\/(0x[0-9a-fA-F]{40})\/?$/;

function isCurrent(pathname: string, to: string): boolean {
  if (to === "/operator") return pathname === "/operator" || pathname === "/operator/";
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** The console's own navigation, under the header's: one link a page. */
function OperatorNav({ pathname }: { pathname: string }) {
  return (
    <nav aria-label="Operator console" className="subnav">
      {PAGES.map((page) => (
        <Link key={page.to} to={page.to} aria-current={isCurrent(pathname, page.to) ? "page" : undefined}>
          {page.label}
        </Link>
      ))}
    </nav>
  );
}

function Page({ pathname }: { pathname: string }) {
  if (pathname === "/operator" || pathname === "/operator/") return <OverviewPage />;
  if (pathname === "/operator/wallets") return <WalletsPage />;
  const wallet = WALLET_PATH.exec(pathname);
  if (wallet?.[1]) return <WalletPage address={wallet[1]} />;
  if (pathname === "/operator/payments") return <PaymentsPage />;
  if (pathname === "/operator/tokens") return <TokensPage />;
  if (pathname === "/operator/audit") return <AuditPage />;
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/operator">Go to the operator console</Link>.
      </p>
    </section>
  );
}

/**
 * The operator console (docs/operator.md#console): the deployment's overview, wallets, payments,
 * tokens and audit trail, over the server's `operator.*` procedures.
 */
export function OperatorConsole({ pathname }: { pathname: string }) {
  return (
    <div className="operator">
      <OperatorNav pathname={pathname} />
      <Page pathname={pathname} />
    </div>
  );
}
