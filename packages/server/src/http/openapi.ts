import type { AnyTRPCRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { errorEnvelope } from "../schemas/error.js";

const ERROR_REF = { $ref: "#/components/schemas/Error" };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (`BAD_REQUEST`, with `issues`; for usage also a range that is reversed or too large) or malformed JSON (`PARSE_ERROR`)",
  401: "Missing, invalid, expired or logged-out session token (`UNAUTHORIZED`); for sign-in: any failed check",
  403: "The session's wallet is not the requested wallet (`FORBIDDEN`)",
  404: "No such key for this wallet (`NOT_FOUND`); another wallet's key looks the same as a missing one",
  409: "Conflict (`CONFLICT`): active-key cap reached, or the key cannot be rolled",
  413: "Body larger than 64 KiB (`PAYLOAD_TOO_LARGE`)",
  415: "Body is not application/json (`UNSUPPORTED_MEDIA_TYPE`)",
  500: "Unexpected error (`INTERNAL_SERVER_ERROR`); never carries details",
  503: "The database is unreachable (`SERVICE_UNAVAILABLE`); retry shortly",
};

/** Error statuses each operation can answer, beyond 400, 500 and 503 which every one can. */
const EXTRA_ERRORS: Record<string, number[]> = {
  "auth-nonce": [413, 415],
  "auth-verify": [401, 413, 415],
  "auth-logout": [401, 413, 415],
  "keys-create": [401, 403, 409, 413, 415],
  "keys-list": [401, 403],
  "keys-revoke": [401, 404],
  "keys-roll": [401, 404, 409, 413, 415],
  "keys-verify": [413, 415],
  "usage-get": [401, 403, 404],
};

export interface OpenApiDocumentOptions {
  /** Operation ids answering 201 instead of 200. */
  created: ReadonlySet<string>;
  version: string;
}

const DESCRIPTION = `Wallet-owned API keys. Sign in with Ethereum (EIP-4361): POST /auth/nonce, sign a message with that nonce, POST /auth/verify, then send \`Authorization: Bearer <token>\`.

Every error is JSON \`{ code, message, issues? }\` where \`code\` is the tRPC error code name. Times are ISO-8601 strings. Wallets are accepted in any case and returned EIP-55 checksummed. Query strings: only the first value of a repeated parameter is used. The same procedures are served over tRPC at /trpc (superjson).`;

/**
 * OpenAPI 3.1 for every procedure with `meta.openapi`, with the error envelope as a shared schema and
 * each operation's possible error statuses.
 */
export function createOpenApiDocument(router: AnyTRPCRouter, options: OpenApiDocumentOptions): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: "Keyport API",
    description: DESCRIPTION,
    version: options.version,
    baseUrl: "/",
    securitySchemes: {
      sessionToken: { type: "http", scheme: "bearer", description: "Session token from /auth/verify" },
    },
    defs: { Error: errorEnvelope },
  });
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of [item.get, item.post, item.put, item.patch, item.delete]) {
      if (!operation?.responses || !operation.operationId) continue;
      const responses = operation.responses;
      const success = responses["200"];
      if (options.created.has(operation.operationId) && success) {
        responses["201"] = success;
        delete responses["200"];
      }
      for (const key of Object.keys(responses)) if (key !== "200" && key !== "201") delete responses[key];
      for (const status of [400, ...(EXTRA_ERRORS[operation.operationId] ?? []), 500, 503]) {
        responses[String(status)] = {
          description: ERROR_DESCRIPTIONS[status] ?? "Error",
          content: { "application/json": { schema: ERROR_REF } },
        };
      }
    }
  }
  return document;
}
