#!/bin/sh
# Installs gengate as the container image holds it: the npm package of a built checkout (dist/ with
# the dashboard, catalog/; see "files" in package.json) and its production dependencies, nothing else.
#   sh deploy/install-package.sh CHECKOUT DESTINATION
# The checkout must be built (`npm run build`). The Dockerfile runs this in its build stage;
# test/deploy-package.test.ts runs it in a temporary folder. Extra npm settings come from the
# environment (npm_config_prefer_offline=true and the like).
set -eu
checkout=$(cd "$1" && pwd)
mkdir -p "$2"
destination=$(cd "$2" && pwd)
packed=$(mktemp -d)
trap 'rm -rf "$packed"' EXIT

test -f "$checkout/dist/cli.js" || { echo "install-package: $checkout/dist/cli.js is missing: run npm run build first" >&2; exit 1; }
# --ignore-scripts: the checkout is built already; `prepare` would only check that again.
(cd "$checkout" && npm pack --ignore-scripts --silent --pack-destination "$packed" >/dev/null)
tar -xzf "$packed"/gengate-*.tgz -C "$destination" --strip-components=1
# npm pack leaves the lock file out; the install must resolve exactly the versions that were tested.
cp "$checkout/package-lock.json" "$destination/"
# better-sqlite3 (SQLite) and sharp (images) are native: this builds or picks them for the Node
# and the libc of the machine running it, which must be the one that runs the gateway.
cd "$destination"
npm ci --omit=dev --no-audit --no-fund
