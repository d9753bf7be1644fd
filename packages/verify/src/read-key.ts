const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The key a request carries: `Authorization: Bearer <key>`, else `X-API-Key: <key>`; `undefined` when
 * neither holds one.
 * @example readKey(request.headers.get("authorization"), request.headers.get("x-api-key"))
 */
export function readKey(
  authorization: string | null | undefined,
  apiKeyHeader: string | null | undefined,
): string | undefined {
  if (authorization) {
    const key = BEARER.exec(authorization)?.[1];
    if (key !== undefined) return key;
  }
  const key = apiKeyHeader?.trim();
  return key ? key : undefined;
}
