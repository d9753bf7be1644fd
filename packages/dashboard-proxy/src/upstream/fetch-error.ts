/**
 * A short, loggable description of why `fetch` threw: the error code (`ECONNRESET`,
 * `UND_ERR_SOCKET`...) or the error name. Never the message, which for some errors quotes the URL.
 */
export function fetchErrorDetail(error: unknown): string {
  if (!(error instanceof Error)) return "unknown error";
  const cause: unknown = error.cause;
  if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code;
  if ("code" in error && typeof error.code === "string") return error.code;
  return error.name;
}
