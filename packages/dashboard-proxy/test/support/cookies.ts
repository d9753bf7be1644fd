/** One `Set-Cookie` the proxy sent, split into its value and attributes (names lower-cased). */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Map<string, string>;
}

/** Parses every `Set-Cookie` header of a response. */
export function setCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map((line) => {
    const [pair = "", ...rest] = line.split(";").map((part) => part.trim());
    const equals = pair.indexOf("=");
    const attributes = new Map<string, string>();
    for (const attribute of rest) {
      const at = attribute.indexOf("=");
      if (at === -1) attributes.set(attribute.toLowerCase(), "");
      else attributes.set(attribute.slice(0, at).toLowerCase(), attribute.slice(at + 1));
    }
    return { name: pair.slice(0, equals), value: pair.slice(equals + 1), attributes };
  });
}

/** The `Cookie` header a browser would send back for these (the ones that are not deletions). */
export function cookieHeader(cookies: SetCookie[]): string {
  return cookies
    .filter((cookie) => cookie.attributes.get("max-age") !== "0")
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join("; ");
}
