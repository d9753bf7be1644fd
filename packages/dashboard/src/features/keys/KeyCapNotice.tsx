import { activeKeyCapNotice } from "./key-cap";

/**
 * A notice once the wallet's active keys (grace periods included) near the server's cap: `cap` is its
 * MAX_ACTIVE_KEYS_PER_WALLET, which `keys.list` answers as `activeKeyCap`, and `active` the `total`
 * of `keys.list` with status active.
 */
export function KeyCapNotice({ active, cap }: { active: number; cap: number }) {
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
