/** The OpenAPI description of routers/meta.ts's operation (docs/api.md says the same for people). */
export const metaDescription =
  "No session. `payments`: the top-up token (`network`, `asset`, `decimals`, `creditsPerToken`, and `min` and `max` in whole tokens), or null while payments are off, when top-ups answer 501; `chainIds`: the chains whose sign-in the server accepts. Fixed while the server runs, so answers carry `Cache-Control: public, max-age=300`.";
