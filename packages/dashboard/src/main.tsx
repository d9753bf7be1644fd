import { QueryClientProvider } from "@tanstack/react-query";
import { Fragment, lazy, StrictMode, Suspense, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { WagmiProvider } from "wagmi";
import { isWrongAddress, WrongAddress } from "./features/address/WrongAddress";
import { AccountNotice } from "./features/session/AccountNotice";
import { Header } from "./features/session/Header";
import { SessionEndedDialog } from "./features/session/SessionEndedDialog";
import { SignInScreen } from "./features/session/SignInScreen";
import { useSession } from "./features/session/use-session";
import { useEndedSession } from "./lib/ended-session";
import { useMeta } from "./lib/meta";
import { queryClient } from "./lib/query-client";
import { Link, navigate, usePathname } from "./lib/router";
import { wagmiConfig } from "./lib/wagmi";
import { KeysRoute } from "./routes/keys";
import { ErrorBoundary } from "./ui/ErrorBoundary";
import { ErrorMessage, Loading } from "./ui/Status";
import { Toaster } from "./ui/Toaster";
import "./styles.css";

// Keys is the first view; charts, activity, sessions, webhooks, markets and chat load when first opened (the first-load budget).
const UsageRoute = lazy(() => import("./routes/usage").then((module) => ({ default: module.UsageRoute })));
const MarketsRoute = lazy(() =>
  import("./routes/markets").then((module) => ({ default: module.MarketsRoute })),
);
const CoinRoute = lazy(() => import("./routes/coin").then((module) => ({ default: module.CoinRoute })));
const EventsRoute = lazy(() => import("./routes/events").then((module) => ({ default: module.EventsRoute })));
const KeyRoute = lazy(() => import("./routes/key").then((module) => ({ default: module.KeyRoute })));
const SessionsRoute = lazy(() =>
  import("./routes/sessions").then((module) => ({ default: module.SessionsRoute })),
);
const WebhooksRoute = lazy(() =>
  import("./routes/webhooks").then((module) => ({ default: module.WebhooksRoute })),
);
const WebhookRoute = lazy(() =>
  import("./routes/webhook").then((module) => ({ default: module.WebhookRoute })),
);
const ChatRoute = lazy(() => import("./routes/chat").then((module) => ({ default: module.ChatRoute })));
// The operator console is its own chunk: a wallet that is not an operator never loads it.
const OperatorRoute = lazy(() =>
  import("./routes/operator").then((module) => ({ default: module.OperatorRoute })),
);

const KEY_PATH = /^\/keys\/([A-Za-z0-9_]{1,100})\/?$/;
const WEBHOOK_PATH = /^\/webhooks\/([A-Za-z0-9_]{1,100})\/?$/;
const COIN_PATH = /^\/markets\/([a-z0-9][a-z0-9._-]{0,99})\/?$/;

function Routes({ wallet, operator }: { wallet: string; operator: boolean }) {
  const pathname = usePathname();
  const meta = useMeta();
  const home = pathname === "/" || pathname === "";
  // `/events` was the activity view's first address: links to it keep working.
  const oldActivity = pathname === "/events";
  useEffect(() => {
    if (home) navigate("/keys", { replace: true });
    if (oldActivity) navigate(`/activity${window.location.search}`, { replace: true });
  }, [home, oldActivity]);

  if (home || pathname === "/keys") return <KeysRoute wallet={wallet} />;
  const key = KEY_PATH.exec(pathname);
  if (key?.[1]) return <KeyRoute wallet={wallet} id={key[1]} />;
  if (pathname === "/usage") return <UsageRoute wallet={wallet} />;
  if (pathname === "/activity" || oldActivity) return <EventsRoute wallet={wallet} />;
  if (pathname === "/sessions") return <SessionsRoute />;
  if (pathname === "/webhooks") return <WebhooksRoute wallet={wallet} />;
  const webhook = WEBHOOK_PATH.exec(pathname);
  if (webhook?.[1]) return <WebhookRoute wallet={wallet} id={webhook[1]} />;
  if (pathname === "/markets") return <MarketsRoute />;
  const coin = COIN_PATH.exec(pathname);
  if (coin?.[1]) return <CoinRoute id={coin[1]} />;
  // Only an operator's session has the console; any other wallet gets "Page not found" there.
  if (operator && (pathname === "/operator" || pathname.startsWith("/operator/"))) {
    return <OperatorRoute pathname={pathname} />;
  }
  if (pathname === "/chat") {
    if (!meta.ready) return <Loading label="Loading…" />;
    if (meta.chat) return <ChatRoute wallet={wallet} />;
    return (
      <section>
        <h1>Chat</h1>
        <p>Chat is not available: this Keyport has no agent configured (AGENT_URL).</p>
      </section>
    );
  }
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/keys">Go to your keys</Link>.
      </p>
    </section>
  );
}

function App() {
  const session = useSession();
  const pathname = usePathname();
  const meta = useMeta();
  const ended = useEndedSession();
  if (isWrongAddress(meta.publicOrigin)) return <WrongAddress publicOrigin={meta.publicOrigin} />;
  if (session.isPending) {
    return (
      <main id="main" className="centered">
        <Loading label="Loading Keyport…" />
      </main>
    );
  }
  if (session.isError) {
    return (
      <main id="main" className="centered">
        <h1>Keyport</h1>
        <ErrorMessage error={session.error} onRetry={() => session.refetch()} />
      </main>
    );
  }
  // A session that ended under the user keeps its page on screen, under a dialog to sign in again.
  const shown = session.data ?? ended;
  if (shown === null) return <SignInScreen />;
  return (
    <Fragment key={shown.wallet.toLowerCase()}>
      <Header session={shown} />
      <AccountNotice session={shown} />
      <main id="main" className="content">
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<Loading label="Loading…" />}>
            <Routes wallet={shown.wallet} operator={shown.operator} />
          </Suspense>
        </ErrorBoundary>
      </main>
      {session.data === null ? <SessionEndedDialog session={shown} /> : null}
      <Toaster />
    </Fragment>
  );
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={wagmiConfig}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  );
}
