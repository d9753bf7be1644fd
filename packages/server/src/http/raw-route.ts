import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A route that reads its own body (as bytes) and writes its own answer: the leak reports, whose
 * signatures cover the raw body and whose answers follow GitHub's, GitLab's and TruffleHog's
 * protocols rather than tRPC's. Matched by exact `METHOD /path` (any query), after the fast routes.
 */
export interface RawRoute {
  /** A declared or streamed body over this is 413 (the leak routes take 2 MiB, docs/leaks.md). */
  maxBodyBytes: number;
  /** Answers the request; a thrown `TRPCError` becomes the error envelope, anything else a 500. */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
}
