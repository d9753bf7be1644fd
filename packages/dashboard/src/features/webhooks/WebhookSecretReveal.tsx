import { useMeta } from "../../lib/meta";
import { SecretOnce } from "../../ui/SecretOnce";
import type { GuardedClose } from "../../ui/use-guarded-close";

/**
 * An endpoint's signing secret, shown once (after "Add endpoint" and "Rotate secret") through
 * ui/SecretOnce, with how to verify a request with it.
 */
export function WebhookSecretReveal({
  secret,
  note,
  guard,
}: {
  secret: string;
  /** What else the user should know now ("The old secret keeps signing for 24 hours."). */
  note?: string;
  /** The dialog's guarded close (useGuardedClose). */
  guard: GuardedClose;
}) {
  const meta = useMeta();
  return (
    <SecretOnce
      label="secret"
      secret={secret}
      guard={guard}
      warning={
        <>
          <strong>Copy this signing secret now.</strong> It will not be shown again; rotate it to get a new
          one.
        </>
      }
    >
      {note !== undefined ? <p>{note}</p> : null}
      <p className="hint">
        Each request carries <code>webhook-id</code>, <code>webhook-timestamp</code> and{" "}
        <code>webhook-signature</code> headers, signed as{" "}
        <a href="https://www.standardwebhooks.com/" target="_blank" rel="noopener noreferrer">
          Standard Webhooks
        </a>{" "}
        sign them: verify the signature with this secret (any Standard Webhooks library does) and refuse a
        timestamp older than 5 minutes. How, with code: the repository&apos;s docs/webhooks.md, and the{" "}
        <a href={`${meta.serverUrl}/docs`} target="_blank" rel="noopener noreferrer">
          API reference
        </a>
        .
      </p>
    </SecretOnce>
  );
}
