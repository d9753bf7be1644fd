import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useResetSessionErrorOnReturn } from "../../lib/ended-session";
import { describeError } from "../../lib/errors";
import { trpc } from "../../lib/trpc";
import { Dialog } from "../../ui/Dialog";
import { DialogActions } from "../../ui/DialogActions";
import { FormAlert } from "../../ui/FormAlert";
import { showToast } from "../../ui/toast";
import { invalidateKeys } from "./key-queries";
import type { ApiKey } from "./key-status";

/**
 * Why a pasted key cannot be this one, or null when it may be: the page knows only the key's start
 * (its prefix and first random characters), so a key pasted from the wrong place is caught before
 * anything is revoked.
 */
export function leakedKeyProblem(pasted: string, start: string): string | null {
  if (pasted === "") return "Paste the key as it was found.";
  if (!pasted.startsWith(start)) return `This is not the key: it starts with ${start}.`;
  return null;
}

/**
 * "Report leaked" for an active key: its holder pastes the key as it was found in public, and the
 * self-report (`keys.reportLeak`, docs/leaks.md) revokes it at once and marks it found in public,
 * reported by its holder, so its page and Activity say why it stopped working.
 */
export function ReportLeakDialog({ apiKey, describedBy }: { apiKey: ApiKey; describedBy: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [pasted, setPasted] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const problemId = useId();
  const report = useMutation({
    ...trpc.keys.reportLeak.mutationOptions({
      onSuccess: async () => {
        void queryClient.invalidateQueries({ queryKey: trpc.events.list.pathKey() });
        await invalidateKeys(queryClient);
        close();
        showToast(`Key “${apiKey.name}” reported as leaked and revoked.`);
      },
    }),
    // The input is a secret: keep it no longer than the dialog is open.
    gcTime: 0,
  });
  useResetSessionErrorOnReturn(report.error, report.reset);

  function close() {
    setOpen(false);
    setPasted("");
    setProblem(null);
    report.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = leakedKeyProblem(pasted.trim(), apiKey.start);
    setProblem(found);
    if (found === null) report.mutate({ key: pasted.trim() });
  }

  return (
    <>
      <button
        type="button"
        className="button button-small button-danger"
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        Report leaked
      </button>
      <Dialog open={open} onClose={close} title={`Report “${apiKey.name}” as leaked?`}>
        <form onSubmit={submit} className="form" noValidate>
          <p>
            Keyport revokes the key from the next request and marks it as found in public, reported by you.
            This cannot be undone: create or roll a key for your backends first.
          </p>
          <label className="field" htmlFor={inputId}>
            <span>The leaked key</span>
            <input
              id={inputId}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={pasted}
              aria-invalid={problem === null ? undefined : true}
              aria-describedby={problem === null ? undefined : problemId}
              onChange={(event) => setPasted(event.currentTarget.value)}
            />
          </label>
          {problem === null ? null : (
            <p id={problemId} className="field-error">
              {problem}
            </p>
          )}
          <FormAlert error={report.isError ? describeError(report.error) : null} />
          <DialogActions
            onCancel={close}
            confirmLabel="Report and revoke"
            busy={report.isPending}
            tone="danger"
          />
        </form>
      </Dialog>
    </>
  );
}
