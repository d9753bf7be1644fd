/** How close the wallet is to its active-key cap: a notice from 90 % of it (at least one key left before). */
export function activeKeyCapNotice(active: number, cap: number): "full" | "near" | null {
  if (active >= cap) return "full";
  if (active >= Math.max(1, Math.floor(cap * 0.9))) return "near";
  return null;
}
