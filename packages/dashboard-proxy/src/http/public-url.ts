/**
 * The URL to open for a server listening on `host:port`, for start logs. An unset or wildcard host
 * (all interfaces) is shown as `localhost`, the address a user on the same machine types.
 * @example publicUrl(undefined, 3000) // "http://localhost:3000"
 */
export function publicUrl(host: string | undefined, port: number): string {
  if (host === undefined || host === "0.0.0.0" || host === "::") return `http://localhost:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
