/** Whether a copy worked: "no" before any, then "yes" or "failed". */
export type CopyState = "no" | "yes" | "failed";

/** Puts `text` on the clipboard; "failed" when the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<CopyState> {
  try {
    await navigator.clipboard.writeText(text);
    return "yes";
  } catch {
    return "failed";
  }
}
