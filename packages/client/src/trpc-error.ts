import { type ErrorIssue, KeyportError, networkError, readIssues, toKeyportError } from "@keyport/errors";
import { TRPCClientError } from "@trpc/client";
import { z } from "zod";

// The error shape's `data` as the server's error formatter sends it; validated, never assumed.
const errorData = z.object({ code: z.string(), httpStatus: z.number().int(), issues: z.unknown() });

/**
 * Turns whatever a tRPC call rejected with into a KeyportError: the server's code, HTTP status, message and
 * issues when it answered; `CLIENT_CLOSED_REQUEST` when the caller aborted; `NETWORK_ERROR` otherwise.
 */
export function fromTRPCError(error: unknown): KeyportError {
  if (error instanceof KeyportError) return error;
  if (!(error instanceof TRPCClientError)) return networkError(error);
  const data = errorData.safeParse(error.data);
  if (data.success) {
    const { code, httpStatus } = data.data;
    const issues = readIssues(data.data.issues);
    // For input validation tRPC's message is zod's JSON dump of the issues; say it in one readable line.
    const message = issues && issues.length > 0 ? describeIssues(issues) : error.message;
    return toKeyportError(httpStatus, { code, message, issues }, { fallbackMessage: message, cause: error });
  }
  if (error.cause?.name === "AbortError") {
    return new KeyportError({
      code: "CLIENT_CLOSED_REQUEST",
      status: 499,
      message: "The call was aborted",
      cause: error,
    });
  }
  // An HTTP answer that is not a tRPC error (a gateway's HTML 502, say): keep its status.
  const response = error.meta?.response;
  if (typeof Response !== "undefined" && response instanceof Response) {
    return toKeyportError(response.status, undefined, {
      fallbackMessage: `The server answered HTTP ${response.status} without a tRPC error body`,
      cause: error,
    });
  }
  return networkError(error);
}

function describeIssues(issues: ErrorIssue[]): string {
  return `Invalid input: ${issues.map((issue) => `${issue.path.join(".") || "(input)"}: ${issue.message}`).join("; ")}`;
}
