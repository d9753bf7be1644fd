import { checksummed, shortAddress } from "../../lib/format";
import { useMeta } from "../../lib/meta";
import { Link, usePathname } from "../../lib/router";
import type { Session } from "../../lib/session-api";
import { describeSignInError } from "./sign-in-error";
import { useSignOut } from "./use-sign-in";

const LINKS = [
  { to: "/keys", label: "Keys" },
  { to: "/usage", label: "Usage" },
  { to: "/activity", label: "Activity" },
  { to: "/sessions", label: "Sessions" },
  { to: "/webhooks", label: "Webhooks" },
  { to: "/markets", label: "Markets" },
  { to: "/chat", label: "Chat" },
] as const;

/** The signed-in header: navigation, the wallet (shortened, full in the title) and "Sign out". */
export function Header({ session }: { session: Session }) {
  const pathname = usePathname();
  const meta = useMeta();
  const signOut = useSignOut();
  const links: readonly { to: string; label: string }[] = [
    ...LINKS.filter((link) => link.to !== "/chat" || meta.chat),
    // The operator console, for an operator's session only (docs/operator.md#console).
    ...(session.operator ? [{ to: "/operator", label: "Operator" }] : []),
  ];

  return (
    <header className="header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <span className="brand">Keyport</span>
      <nav aria-label="Main" className="nav">
        {links.map((link) => (
          <Link
            key={link.to}
            to={link.to}
            aria-current={pathname === link.to || pathname.startsWith(`${link.to}/`) ? "page" : undefined}
          >
            {link.label}
          </Link>
        ))}
      </nav>
      <div className="account">
        <span className="address" title={checksummed(session.wallet)}>
          <span className="visually-hidden">Signed in as </span>
          {shortAddress(session.wallet)}
        </span>
        <button
          type="button"
          className="button"
          disabled={signOut.isPending}
          onClick={() => signOut.mutate()}
        >
          Sign out
        </button>
      </div>
      {signOut.isError ? (
        <p role="alert" className="status status-error header-error">
          {describeSignInError(signOut.error)}
        </p>
      ) : null}
    </header>
  );
}
