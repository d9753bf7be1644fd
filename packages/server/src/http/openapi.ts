import type { AnyTRPCRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import type { ErrorStatus } from "../procedure-meta.js";
import type { RestRoute } from "../routers/rest.js";
import { errorEnvelope } from "../schemas/error.js";
import { assertEveryRouteDocumented } from "./openapi-coverage.js";
import { mergeWalletOrIdPaths, OPERATION_METHODS } from "./openapi-paths.js";
import { describeTopUp } from "./openapi-top-up.js";

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** Every answer carries the request's id (docs/decisions.md, "Request ids"). */
const REQUEST_ID_HEADERS = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };
const REQUEST_ID_HEADER_DOC = {
  description:
    "The request's id: the caller's own X-Request-Id when it is 1-64 characters of [A-Za-z0-9._-], else a fresh one. A 5xx body repeats it as `requestId`.",
  schema: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" },
} as const;

/** Statuses every route can answer, whatever its own list says. */
const COMMON_ERRORS = [400, 500, 503] as const;

const ERROR_DESCRIPTIONS: Record<ErrorStatus | (typeof COMMON_ERRORS)[number], string> = {
  400: "Invalid input (`BAD_REQUEST`, with `issues`; for usage also a range that is reversed or too large) or malformed JSON (`PARSE_ERROR`)",
  401: "Missing, invalid, expired or logged-out session token (`UNAUTHORIZED`); for sign-in: any failed check",
  402: "Payment required (`PAYMENT_REQUIRED`): no payment, or one refused; the `PAYMENT-REQUIRED` header (base64 JSON, x402 v2) says what to pay",
  403: "The session's wallet is not the requested wallet (`FORBIDDEN`); on the operator API: the session's wallet is not an operator, or the token lacks the scope (`reason: INSUFFICIENT_SCOPE`); a wallet the deployment's operator suspended signing in, topping up or writing its keys (`reason: WALLET_SUSPENDED`)",
  404: "No such key for this wallet (`NOT_FOUND`); another wallet's key looks the same as a missing one; on the operator API: no such key or wallet",
  409: "Conflict (`CONFLICT`): active-key cap reached, the key cannot be rolled or changed, or its credits cannot be removed while it holds purchased credits; on the operator API: an operator wallet cannot be suspended",
  413: "Body larger than 64 KiB (`PAYLOAD_TOO_LARGE`)",
  415: "Body is not application/json (`UNSUPPORTED_MEDIA_TYPE`)",
  429: "Too many requests from this client address (`TOO_MANY_REQUESTS`); `Retry-After` says how many seconds to wait",
  501: "Not implemented here (`NOT_IMPLEMENTED`): payments are off on this server (PAYMENTS_NETWORK unset)",
  500: "Unexpected error (`INTERNAL_SERVER_ERROR`); never carries details",
  503: "The database is unreachable, or a dependency did not answer within the 5 s request deadline (`SERVICE_UNAVAILABLE`); retry shortly",
};

export interface OpenApiDocumentOptions {
  version: string;
}

const DESCRIPTION = `Wallet-owned API keys. Sign in with Ethereum (EIP-4361): POST /auth/nonce, sign a message with that nonce, POST /auth/verify, then send \`Authorization: Bearer <token>\`.

Every error is JSON \`{ code, message, issues?, requestId? }\` where \`code\` is the tRPC error code name; a 5xx carries \`requestId\`, the \`X-Request-Id\` every answer has (the caller's own when it is 1-64 characters of \`[A-Za-z0-9._-]\`). Times are ISO-8601 strings. Wallets are accepted in any case and returned EIP-55 checksummed. Query strings: only the first value of a repeated parameter is used. The same procedures are served over tRPC at /trpc (superjson).`;

/**
 * OpenAPI 3.1 for the REST table: trpc-to-openapi describes each procedure's input and output from
 * its schemas and meta, then each operation takes its success status, error statuses and security
 * from its route. Fails at start if an operation of the served document (after the merge of
 * `/api-keys/{walletOrId}`) has no route or a route is not in it.
 */
export function createOpenApiDocument(
  router: AnyTRPCRouter,
  routes: readonly RestRoute[],
  options: OpenApiDocumentOptions,
): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: "Keyport API",
    description: DESCRIPTION,
    version: options.version,
    license: { name: "MIT", identifier: "MIT" },
    baseUrl: "/",
    securitySchemes: {
      sessionToken: { type: "http", scheme: "bearer", description: "Session token from /auth/verify" },
      operatorToken: {
        type: "http",
        scheme: "bearer",
        description:
          "Operator token (`<KEY_PREFIX>o_...`) with the operation's scope; an operator wallet's session token also works (docs/operator.md)",
      },
    },
    defs: { Error: errorEnvelope },
  });
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const route = routes.find((r) => r.path === path && r.method.toLowerCase() === method);
      if (!route) throw new Error(`OpenAPI operation ${method.toUpperCase()} ${path} has no REST route`);
      const responses = operation.responses ?? {};
      const success = responses["200"];
      for (const key of Object.keys(responses)) delete responses[key];
      if (success && !("$ref" in success)) {
        responses[String(route.successStatus)] = { ...success, headers: REQUEST_ID_HEADERS };
      }
      for (const status of [...route.errors, ...COMMON_ERRORS].sort((a, b) => a - b)) {
        responses[String(status)] = {
          description: ERROR_DESCRIPTIONS[status],
          headers: REQUEST_ID_HEADERS,
          content: { "application/json": { schema: ERROR_REF } },
        };
      }
      operation.responses = responses;
      // Public operations say so explicitly rather than leaving it to a missing field.
      if (route.security === "public") operation.security = [];
      // trpc-to-openapi lists every scheme on a protected operation: each names its own.
      if (route.security === "session") operation.security = [{ sessionToken: [] }];
      if (route.security === "operator") {
        operation.security =
          route.requires === "session"
            ? [{ sessionToken: [] }]
            : [{ operatorToken: [] }, { sessionToken: [] }];
        if (route.requires !== "session") operation["x-operator-scope"] = route.requires;
      }
      // A body whose fields are all optional may be left out (roll reads no body as `{}`).
      const body = operation.requestBody;
      const schema = body && "content" in body ? body.content["application/json"]?.schema : undefined;
      if (body && "content" in body && schema && !("$ref" in schema) && !schema.required?.length) {
        body.required = false;
      }
    }
  }
  document.components = { ...document.components, headers: { RequestId: REQUEST_ID_HEADER_DOC } };
  describeTopUp(document);
  mergeWalletOrIdPaths(document);
  assertEveryRouteDocumented(document, routes);
  dropUnusedSchemas(document);
  return document;
}

/** Drops component schemas nothing refers to (trpc-to-openapi's own error shapes, replaced by `Error`). */
function dropUnusedSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const text = JSON.stringify(document);
  for (const name of Object.keys(schemas)) {
    if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
}
