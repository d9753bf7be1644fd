// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { HttpError } from "../../lib/http";
import { SignInError } from "./SignInError";

afterEach(cleanup);

function renderError(error: unknown) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <SignInError error={error} connector={undefined} onSwitched={() => undefined} />
    </QueryClientProvider>,
  );
}

describe("a refused sign-in", () => {
  it("shows the server's sentence for the check that failed, not a generic one", () => {
    const reason = "The message's domain localhost is not one this server accepts (localhost:3001)";
    renderError(new HttpError(401, reason));
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe(`Keyport refused the sign-in: ${reason}`);
    expect(alert.textContent).not.toContain("did not accept the signature");
  });

  it("says so when the deployment's operator suspended the wallet, in the server's words", () => {
    const reason =
      "This wallet is suspended by this deployment: it cannot sign in. Ask the deployment's operator why";
    renderError(new HttpError(403, reason));
    expect(screen.getByRole("alert").textContent).toBe(`Keyport refused the sign-in: ${reason}`);
  });

  it("says the wallet declined when the person said no in the wallet", () => {
    renderError({ code: 4001, shortMessage: "User rejected the request." });
    expect(screen.getByRole("alert").textContent).toBe(
      "The wallet declined the request. Nothing was signed.",
    );
  });
});
