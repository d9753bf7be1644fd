import { type KeyObject, verify } from "node:crypto";

/**
 * Checks a leak report's signature: ECDSA P-256 with SHA-256, base64 of its DER encoding, over the
 * body's raw bytes (as GitHub and GitLab sign them). Any malformed signature is simply not valid.
 * @example isSignedBy(publicKey, req.headers["github-public-key-signature"], body)
 */
export function isSignedBy(publicKey: KeyObject, signatureBase64: string, body: Buffer): boolean {
  const signature = Buffer.from(signatureBase64, "base64");
  if (signature.length === 0) return false;
  try {
    return verify("sha256", body, { key: publicKey, dsaEncoding: "der" }, signature);
  } catch {
    return false;
  }
}
