import { z } from "zod";
import { HttpError } from "../../lib/http";

/** What an operator does to a wallet: suspend it, or lift the suspension (docs/operator.md#console). */
export type SuspensionAction = "suspend" | "unsuspend";

const answer = z.object({ result: z.object({ data: z.unknown() }) });
const refusal = z.object({
  error: z.object({
    json: z.object({ message: z.string(), data: z.object({ httpStatus: z.number() }).partial() }),
  }),
});

/**
 * `operator.wallets.suspend` / `.unsuspend` with `{ wallet, reason }`, through the proxy's `/trpc` as
 * the tRPC client would send it (superjson's `{ json }` body). Throws `HttpError` with the server's
 * message and status when refused, as the page's errors are read (lib/errors.ts).
 */
export async function changeSuspension(
  action: SuspensionAction,
  input: { wallet: string; reason: string },
): Promise<void> {
  const response = await fetch(`/trpc/operator.wallets.${action}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ json: input }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok && answer.safeParse(body).success) return;
  const refused = refusal.safeParse(body);
  if (refused.success) {
    throw new HttpError(
      refused.data.error.json.data.httpStatus ?? response.status,
      refused.data.error.json.message,
    );
  }
  throw new HttpError(response.ok ? 502 : response.status, `Request failed (${response.status})`);
}
