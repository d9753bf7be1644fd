/**
 * The page opened on an address of this host other than the one it serves (`PUBLIC_ORIGIN`): the
 * proxy refuses sign-in and wallet data from any other origin, so say which address to open.
 */
export function WrongAddress({ publicOrigin }: { publicOrigin: string }) {
  const here = `${publicOrigin}${window.location.pathname}${window.location.search}`;
  return (
    <main id="main" className="sign-in">
      <h1>Keyport</h1>
      <div role="alert" className="status status-error">
        <p>
          This dashboard is served at <a href={here}>{publicOrigin}</a>, not at {window.location.origin}.
          Signing in and your keys work only there: open <a href={here}>{publicOrigin}</a> instead.
        </p>
      </div>
    </main>
  );
}

/** True when the page runs on another origin than the proxy's `PUBLIC_ORIGIN`. */
export function isWrongAddress(publicOrigin: string | undefined): publicOrigin is string {
  return publicOrigin !== undefined && publicOrigin !== window.location.origin;
}
