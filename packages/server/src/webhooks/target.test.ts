import { describe, expect, it } from "vitest";
import { checkWebhookTarget, type LookupAddresses, resolvePublicAddresses } from "./target.js";

/** A resolver that answers from a table, as a DNS server would. */
function fixedLookup(table: Record<string, string[]>): LookupAddresses {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address }));
  };
}

const lookup = fixedLookup({
  "public.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "mixed.example": ["93.184.216.34", "10.0.0.7"],
  "metadata.example": ["169.254.169.254"],
  "v6loop.example": ["::1"],
  "sixtofour.example": ["93.184.216.34", "2002:7f00:1::"],
  "siit.example": ["::ffff:0:a00:1"],
  "nat64.example": ["64:ff9b::5db8:d822", "2002:5db8:d822::1"],
});

describe("resolvePublicAddresses", () => {
  it("answers every address of a name whose addresses are all public", async () => {
    expect(await resolvePublicAddresses("public.example", lookup)).toEqual({
      kind: "public",
      addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    });
  });

  it("refuses a name when any one of its addresses is not public", async () => {
    expect(await resolvePublicAddresses("mixed.example", lookup)).toEqual({
      kind: "refused",
      literal: false,
    });
    expect(await resolvePublicAddresses("metadata.example", lookup)).toEqual({
      kind: "refused",
      literal: false,
    });
    expect(await resolvePublicAddresses("v6loop.example", lookup)).toEqual({
      kind: "refused",
      literal: false,
    });
  });

  it("judges an address that carries IPv4 inside IPv6 by its IPv4 address", async () => {
    for (const name of ["sixtofour.example", "siit.example"]) {
      expect(await resolvePublicAddresses(name, lookup), name).toEqual({ kind: "refused", literal: false });
    }
    expect(await resolvePublicAddresses("nat64.example", lookup)).toEqual({
      kind: "public",
      addresses: ["64:ff9b::5db8:d822", "2002:5db8:d822::1"],
    });
    const never: LookupAddresses = () => Promise.reject(new Error("DNS was asked"));
    for (const literal of ["[::127.0.0.1]", "[::ffff:0:7f00:1]", "[2002:7f00:1::]"]) {
      expect(await resolvePublicAddresses(literal, never), literal).toEqual({
        kind: "refused",
        literal: true,
      });
    }
  });

  it("judges literals and localhost names without asking DNS", async () => {
    const never: LookupAddresses = () => Promise.reject(new Error("DNS was asked"));
    expect(await resolvePublicAddresses("[::1]", never)).toEqual({ kind: "refused", literal: true });
    expect(await resolvePublicAddresses("127.0.0.1", never)).toEqual({ kind: "refused", literal: true });
    expect(await resolvePublicAddresses("LOCALHOST.", never)).toEqual({ kind: "refused", literal: true });
    expect(await resolvePublicAddresses("a.b.localhost", never)).toEqual({ kind: "refused", literal: true });
    expect(await resolvePublicAddresses("8.8.8.8", never)).toEqual({
      kind: "public",
      addresses: ["8.8.8.8"],
    });
  });

  it("takes a name that does not resolve, or not in time, as unresolved", async () => {
    expect(await resolvePublicAddresses("nowhere.example", lookup)).toEqual({ kind: "unresolved" });
    const hanging: LookupAddresses = () => new Promise(() => undefined);
    expect(await resolvePublicAddresses("slow.example", hanging, 20)).toEqual({ kind: "unresolved" });
  });
});

describe("checkWebhookTarget", () => {
  const policy = { allowPrivate: false, lookup };

  it("accepts https to a public or not yet resolving name", async () => {
    expect(await checkWebhookTarget("https://public.example/hook", policy)).toBeNull();
    expect(await checkWebhookTarget("https://nowhere.example/hook", policy)).toBeNull();
  });

  it("names why it refuses", async () => {
    expect(await checkWebhookTarget("http://public.example/hook", policy)).toMatch(/^must use https/);
    expect(await checkWebhookTarget("https://u:p@public.example/", policy)).toMatch(/user name or password/);
    expect(await checkWebhookTarget(`https://public.example/${"x".repeat(2048)}`, policy)).toMatch(/2048/);
    expect(await checkWebhookTarget("https://mixed.example/", policy)).toMatch(/resolves to a loopback/);
    expect(await checkWebhookTarget("https://[fd00:ec2::254]/", policy)).toMatch(/must not point at/);
  });

  it("lets WEBHOOKS_ALLOW_PRIVATE through plain http and private addresses, never credentials", async () => {
    const open = { allowPrivate: true, lookup };
    expect(await checkWebhookTarget("http://127.0.0.1:8080/hook", open)).toBeNull();
    expect(await checkWebhookTarget("https://mixed.example/", open)).toBeNull();
    expect(await checkWebhookTarget("http://u:p@127.0.0.1/", open)).toMatch(/user name or password/);
  });
});
