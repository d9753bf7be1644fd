import type { OperatorPaymentView } from "../schemas/operator-payments.js";

/** The export's columns (docs/operator.md#payments), in order. */
export const PAYMENT_CSV_COLUMNS = [
  "settled_at",
  "kind",
  "wallet",
  "key_id",
  "payer",
  "amount",
  "asset",
  "network",
  "credits",
  "plan_id",
  "days",
  "transaction",
] as const;

// A cell a spreadsheet would run as a formula (or that hides one behind a tab or CR) is prefixed with `'`.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One RFC 4180 cell: formula-safe, quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line, CRLF-terminated as RFC 4180 has it. */
export const PAYMENT_CSV_HEADER = `${PAYMENT_CSV_COLUMNS.join(",")}\r\n`;

/** One payment's line. */
export function paymentCsvLine(row: OperatorPaymentView): string {
  const cells: Record<(typeof PAYMENT_CSV_COLUMNS)[number], string | number | null> = {
    settled_at: row.settledAt.toISOString(),
    kind: row.kind,
    wallet: row.wallet,
    key_id: row.keyId,
    payer: row.payer,
    amount: row.amount,
    asset: row.asset,
    network: row.network,
    credits: row.credits,
    plan_id: row.planId,
    days: row.days,
    transaction: row.transaction,
  };
  return `${PAYMENT_CSV_COLUMNS.map((column) => csvCell(cells[column])).join(",")}\r\n`;
}
