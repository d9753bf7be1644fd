import type { TopUpStep } from "./run-top-up";

const STEPS: { step: TopUpStep; label: string }[] = [
  { step: "signing", label: "Signing" },
  { step: "settling", label: "Settling" },
  { step: "confirmed", label: "Confirmed" },
];

/** Where a top-up is: Signing (the wallet), Settling (the chain), Confirmed; the current one is marked. */
export function TopUpSteps({ current, failed }: { current: TopUpStep; failed: boolean }) {
  const at = STEPS.findIndex((entry) => entry.step === current);
  return (
    <ol className="steps" aria-label="Top-up progress">
      {STEPS.map((entry, index) => {
        const state =
          index < at || current === "confirmed"
            ? "done"
            : index === at
              ? failed
                ? "failed"
                : "current"
              : "todo";
        return (
          <li
            key={entry.step}
            className={`step step-${state}`}
            aria-current={state === "current" ? "step" : undefined}
          >
            {entry.label}
            <span className="visually-hidden">
              {state === "done" ? " (done)" : state === "failed" ? " (failed)" : ""}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
