import type { IncomingMessage, ServerResponse } from "node:http";
import type { Services } from "../context.js";

/** A handler for one exact `METHOD /path`, checked before anything else (hot paths such as verify). */
export type FastRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  services: Services,
) => void | Promise<void>;

/** A verification is an authorisation decision: never cacheable by anything in between. */
export const NO_STORE = { "cache-control": "no-store" };
