import type { ApiKey } from "./key-status";
import { activeKeyCapNotice } from "./select-keys";

/**
 * A notice once the wallet's active keys (grace periods included) near the server's cap: `cap` is its
 * MAX_ACTIVE_KEYS_PER_WALLET, which `keys.list` answers as `activeKeyCap`.
 */
export function KeyCapNotice({ keys, cap }: { keys: readonly ApiKey[]; cap: number }) {
  const active = keys.filter((key) => key.status === "active").length;
  const notice = activeKeyCapNotice(active, cap);
  if (notice === null) return null;
  return (
    <div className="notice notice-inline" role="note">
      <p>
        {notice === "full"
          ? `This wallet holds ${active} active keys, the most this Keyport server allows (${cap}): revoke a key before creating another.`
          : `This wallet holds ${active} active keys; this Keyport server allows ${cap}. Revoke keys you no longer use before you reach it.`}
      </p>
    </div>
  );
}
