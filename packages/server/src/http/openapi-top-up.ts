import type { OpenAPIObject } from "trpc-to-openapi";
import { topUpHttp } from "../routers/top-up.js";

type Operation = NonNullable<NonNullable<OpenAPIObject["paths"]>[string]["post"]>;

const API_KEY_SCHEME = {
  type: "apiKey",
  in: "header",
  name: "X-API-Key",
  description:
    "The key's own secret, sent by its holder (an agent) instead of a session: only for the key's own top-up",
} as const;

/**
 * What trpc-to-openapi cannot say about the top-up (docs/payments.md): it takes the owner's session
 * or the key's own `X-API-Key` (a security scheme), the x402 payment in the `PAYMENT-SIGNATURE`
 * request header, and answers `PAYMENT-REQUIRED` on a 402 and `PAYMENT-RESPONSE` on a 200.
 */
export function describeTopUp(document: OpenAPIObject): void {
  const { path } = topUpHttp.topUp;
  const operation: Operation | undefined = document.paths?.[path]?.post;
  if (operation === undefined) throw new Error(`OpenAPI has no POST ${path}`);
  document.components = {
    ...document.components,
    securitySchemes: { ...document.components?.securitySchemes, apiKey: API_KEY_SCHEME },
  };
  operation.security = [{ sessionToken: [] }, { apiKey: [] }];
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      name: "PAYMENT-SIGNATURE",
      in: "header",
      required: false,
      description:
        "The x402 v2 payment (base64 JSON `PaymentPayload`, scheme `exact`, an EIP-3009 authorization) paying the `PAYMENT-REQUIRED` of a 402. Absent: the 402 says what to pay. A bearer instrument until settled: never log it.",
      schema: { type: "string" },
    },
  ];
  const responses = operation.responses ?? {};
  const addHeader = (status: string, name: string, description: string) => {
    const response = responses[status];
    if (response === undefined || "$ref" in response) throw new Error(`OpenAPI top-up has no ${status}`);
    response.headers = { ...response.headers, [name]: { description, schema: { type: "string" } } };
  };
  addHeader(
    "200",
    "PAYMENT-RESPONSE",
    "The x402 v2 settlement (base64 JSON `SettleResponse`: success, transaction, network, payer)",
  );
  addHeader(
    "402",
    "PAYMENT-REQUIRED",
    "What to pay (base64 JSON x402 v2 `PaymentRequired`: resource, accepts[{ scheme, network, amount, asset, payTo, maxTimeoutSeconds, extra }])",
  );
}
