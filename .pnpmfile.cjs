// pnpm hooks for the whole workspace (pnpm 10.28+ reads `beforePacking` on `pnpm pack` and `pnpm publish`).
"use strict";

/**
 * A published package must not name the workspace's unpublished packages: @keyport/client bundles
 * @keyport/errors and the server's and proxy's types at build time, so its `workspace:` dev links mean
 * nothing outside the monorepo (and npm cannot resolve them). Only the tarball's package.json changes.
 */
function beforePacking(pkg) {
  if (pkg.devDependencies) {
    for (const name of Object.keys(pkg.devDependencies)) {
      if (name.startsWith("@keyport/")) delete pkg.devDependencies[name];
    }
  }
  return pkg;
}

module.exports = { hooks: { beforePacking } };
