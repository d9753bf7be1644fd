import type { ApiKey } from "./key-status";
import { activeKeyCapNotice } from "./select-keys";

/**
 * The server's default MAX_ACTIVE_KEYS_PER_WALLET. Neither `/api/meta` nor `keys.list` says the
 * configured cap today, so the notice words it as the default (docs/dashboard.md).
 */
export const DEFAULT_ACTIVE_KEY_CAP = 50;

/** A notice once the wallet's active keys (grace periods included) near the server's cap. */
export function KeyCapNotice({
  keys,
  cap = DEFAULT_ACTIVE_KEY_CAP,
}: {
  keys: readonly ApiKey[];
  cap?: number;
}) {
  const active = keys.filter((key) => key.status === "active").length;
  const notice = activeKeyCapNotice(active, cap);
  if (notice === null) return null;
  return (
    <div className="notice notice-inline" role="note">
      <p>
        {notice === "full"
          ? `This wallet holds ${active} active keys, Keyport's default maximum (${cap}): revoke a key before creating another.`
          : `This wallet holds ${active} active keys; Keyport allows ${cap} by default. Revoke keys you no longer use before you reach it.`}
      </p>
    </div>
  );
}
