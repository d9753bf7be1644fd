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
import { switchWalletChain } from "../session/chains";
import { wholeAmount } from "./amount";
import { runTopUp, type TopUpOrder, type TopUpStep } from "./run-top-up";
import { TopUpConfirmed } from "./TopUpConfirmed";
import type { TopUpTarget } from "./TopUpDialog";
import { TopUpFailure } from "./TopUpFailure";
import { TopUpSteps } from "./TopUpSteps";

const DEFAULT_AMOUNT = "10";

/**
 * The open top-up dialog (docs/dashboard.md, Top up): choose whole USDC (the quote says the credits it
 * buys, or the server's bounds), "Pay", and it walks through Signing, Settling and Confirmed, then shows
 * the key's new balance. Mounted only while open, so each opening starts afresh.
 */
export function TopUpPanel({ apiKey, onClose }: { apiKey: TopUpTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [amountText, setAmountText] = useState(DEFAULT_AMOUNT);
  const [step, setStep] = useState<TopUpStep | null>(null);
  const amountId = useId();
  const amount = wholeAmount(useDeferredValue(amountText));
  const quote = useQuery({
    ...trpc.keys.topUpQuote.queryOptions({ id: apiKey.id, amount: amount ?? "" }),
    enabled: amount !== null,
    retry: false,
  });
  const topUp = useMutation({
    mutationFn: (order: TopUpOrder) => runTopUp(order, setStep),
    // Also after the dialog was closed mid-way: the server goes on and credits the key.
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
      // The key's balance changed: the list and the key page's key (keys.get) read it again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.keys.list.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.keys.get.pathKey() }),
      ]);
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

  const amountError =
    amount === null ? "Enter a whole number of USDC." : quote.isError ? describeError(quote.error) : null;
  const ready = quote.data !== undefined && quote.data.amount === amount && !quote.isFetching;
  const busy = topUp.isPending || !ready || amountError !== null;

  return (
    <Dialog open onClose={onClose} title={topUp.data ? "Top-up confirmed" : `Top up “${apiKey.name}”`}>
      {topUp.data ? (
        <TopUpConfirmed answer={topUp.data} onDone={onClose} />
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
            Buy credits for this key with USDC from your wallet. Purchased credits never expire and are spent
            after the allowance.
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
            onCancel={onClose}
            confirmLabel={amount === null ? "Pay" : `Pay ${amount} USDC`}
            busy={busy}
          />
        </form>
      )}
    </Dialog>
  );
}
