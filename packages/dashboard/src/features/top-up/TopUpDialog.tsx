import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useId, useState } from "react";
import { getConnection } from "wagmi/actions";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { formatCount } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { wagmiConfig } from "../../lib/wagmi";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { switchWalletChain } from "../session/chains";
import { wholeAmount } from "./amount";
import { runTopUp, type TopUpOrder, type TopUpStep } from "./run-top-up";
import { TopUpConfirmed } from "./TopUpConfirmed";
import { TopUpFailure } from "./TopUpFailure";
import { TopUpSteps } from "./TopUpSteps";

/** The key a top-up is for: its id and name. */
export interface TopUpTarget {
  id: string;
  name: string;
}

const DEFAULT_AMOUNT = "10";

/**
 * "Top up" for a metered, active key (docs/dashboard.md, Top up): choose whole USDC (the quote says the
 * credits it buys, or the server's bounds), "Pay", and the dialog walks through Signing, Settling and
 * Confirmed, then shows the key's new balance.
 */
export function TopUpDialog({ apiKey, describedBy }: { apiKey: TopUpTarget; describedBy: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [amountText, setAmountText] = useState(DEFAULT_AMOUNT);
  const [step, setStep] = useState<TopUpStep | null>(null);
  const amountId = useId();
  const amount = wholeAmount(useDeferredValue(amountText));
  const quote = useQuery({
    ...trpc.keys.topUpQuote.queryOptions({ id: apiKey.id, amount: amount ?? "" }),
    enabled: open && amount !== null,
    retry: false,
  });
  const topUp = useMutation({
    mutationFn: (order: TopUpOrder) => runTopUp(order, setStep),
    onSuccess: async (answer) => {
      void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.keys.list.pathKey() });
      showToast(`${formatCount(answer.topUp.credits)} credits added to “${apiKey.name}”.`);
    },
    gcTime: 0,
  });
  useResetSessionErrorOnReturn(topUp.error, topUp.reset);
  const switchChain = useMutation({
    mutationFn: async (chainId: number) => {
      const { connector } = getConnection(wagmiConfig);
      if (connector === undefined) throw new Error("No wallet is connected.");
      await switchWalletChain(connector, chainId);
    },
    onSuccess: () => {
      topUp.reset();
      setStep(null);
    },
  });

  function close() {
    setOpen(false);
    setStep(null);
    setAmountText(DEFAULT_AMOUNT);
    topUp.reset();
    switchChain.reset();
  }

  const amountError =
    amount === null ? "Enter a whole number of USDC." : quote.isError ? describeError(quote.error) : null;
  const ready = quote.data !== undefined && quote.data.amount === amount && !quote.isFetching;
  const busy = topUp.isPending || !ready || amountError !== null;

  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        Top up
      </button>
      <Dialog open={open} onClose={close} title={topUp.data ? "Top-up confirmed" : `Top up “${apiKey.name}”`}>
        {topUp.data ? (
          <TopUpConfirmed answer={topUp.data} onDone={close} />
        ) : (
          <form
            className="form"
            onSubmit={(event) => {
              event.preventDefault();
              if (!ready || amount === null || quote.data === undefined) return;
              switchChain.reset();
              setStep(null);
              topUp.mutate({ keyId: apiKey.id, amount, requirement: quote.data.requirement });
            }}
          >
            <p>
              Buy credits for this key with USDC from your wallet. Purchased credits never expire and are
              spent after the allowance.
            </p>
            <div className="field">
              <label htmlFor={amountId}>Amount (USDC)</label>
              <input
                id={amountId}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                value={amountText}
                disabled={topUp.isPending}
                aria-invalid={amountError !== null || undefined}
                aria-describedby={`${amountId}-note`}
                onChange={(event) => setAmountText(event.currentTarget.value)}
              />
              <small
                id={`${amountId}-note`}
                className={amountError === null ? "hint" : "field-error"}
                aria-live="polite"
              >
                {amountError ??
                  (quote.data !== undefined && quote.data.amount === amount
                    ? `Buys ${formatCount(quote.data.credits)} credits.`
                    : "Pricing…")}
              </small>
            </div>
            {step === null ? null : <TopUpSteps current={step} failed={topUp.isError} />}
            <TopUpFailure
              error={topUp.isError ? topUp.error : null}
              needed={amount ?? ""}
              switching={switchChain.isPending}
              switchFailed={switchChain.isError}
              onSwitch={(chainId) => switchChain.mutate(chainId)}
            />
            <DialogActions
              onCancel={close}
              confirmLabel={amount === null ? "Pay" : `Pay ${amount} USDC`}
              busy={busy}
            />
          </form>
        )}
      </Dialog>
    </>
  );
}
