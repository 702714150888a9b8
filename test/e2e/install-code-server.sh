#!/usr/bin/env bash
# Installs code-server (VS Code in the browser) for the real-editor tests into the repo's
# git-ignored .cache/, using only the npm registry and Debian apt (Node 20, Debian 12).
#
# This reproduces code-server's postinstall.sh by hand, because that script runs
# `npm install` in lib/vscode, whose @vscode/ripgrep postinstall downloads rg from
# GitHub (unreachable), and kerberos' prebuild-install also tries GitHub first.
#
# usage: test/e2e/install-code-server.sh [DEST]   (default <repo>/.cache/code-server-VERSION)
#        FORCE=1 test/e2e/install-code-server.sh   (redo every step)
# The test runners call it when the cache is missing; a warm run only checks the install.
# result: $DEST/node_modules/code-server/out/node/entry.js   (run it with node)
set -euo pipefail

CS_VERSION="${CS_VERSION:-4.100.3}"   # last code-server whose engines allow Node 20 (4.104+ need 22)
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEST="${1:-$REPO/.cache/code-server-$CS_VERSION}"
DEST="$(mkdir -p "$DEST" && cd "$DEST" && pwd)"
CS="$DEST/node_modules/code-server"
VS="$CS/lib/vscode"
STAMP="$DEST/.code-server-$CS_VERSION.ok"
# the native modules lib/vscode needs on Linux (windows-*, deviceid are Windows-only;
# @parcel/watcher ships a prebuilt .node in @parcel/watcher-linux-x64-glibc)
NATIVE_MODULES=(@vscode/spdlog kerberos native-watchdog node-pty)

log() { printf '\n== %s [%ss]\n' "$*" "$SECONDS"; }

smoke_test() {
  [ -f "$CS/out/node/entry.js" ] || return 1
  (cd "$CS" && node -e "require('argon2')") >/dev/null 2>&1 || return 1
  (cd "$VS" && node -e "
    for (const m of ['@parcel/watcher', '@vscode/spdlog', 'kerberos', 'native-watchdog', 'node-pty']) require(m);
    const fs = require('fs'); fs.accessSync(require('@vscode/ripgrep').rgPath, fs.constants.X_OK);
  ") >/dev/null 2>&1 || return 1
  [ -L "$VS/node_modules.asar" ] && [ -e "$VS/bin/remote-cli/code-server" ] && [ -e "$VS/bin/helpers/browser.sh" ] || return 1
  [ -f "$VS/extensions/node_modules/typescript/lib/typescript.js" ] || return 1
  cs_quiet --version >/dev/null 2>&1 || return 1
}

# code-server writes ~/.config/code-server/config.yaml and ~/.local/share/code-server
# on every start, even for --version: keep that out of the real home
cs_quiet() {
  local h="$DEST/.home"
  HOME="$h" XDG_CONFIG_HOME="$h/.config" XDG_DATA_HOME="$h/.local/share" XDG_CACHE_HOME="$h/.cache" \
    node "$CS/out/node/entry.js" "$@" 2>/dev/null
}

if [ -z "${FORCE:-}" ] && [ -f "$STAMP" ] && smoke_test; then
  echo "code-server $CS_VERSION already installed in $DEST"
  exit 0
fi

# 0. Debian packages: ripgrep (replaces the GitHub download), libkrb5-dev (kerberos addon),
#    a C++ toolchain and python3 for node-gyp. The one list lives in scripts/ensure-system-packages.sh,
#    which installs them with apt when it can and otherwise stops here with the command to run.
log "system packages"
bash "$REPO/scripts/ensure-system-packages.sh" --for code-server

# node-gyp must build against the local Node headers (it would otherwise download them
# from nodejs.org). These machines ship them in /usr/include/node and set nodedir=/usr.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
fi
NODE_GYP="$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$NODE_GYP" ] || { echo "npm's bundled node-gyp not found at $NODE_GYP" >&2; exit 1; }
export npm_config_devdir="$DEST/.node-gyp"   # node-gyp's scratch dir (default ~/.cache/node-gyp)
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# 1. code-server itself, without its postinstall
log "npm install code-server@$CS_VERSION --ignore-scripts"
mkdir -p "$DEST"
cd "$DEST"
[ -f package.json ] || echo '{"name":"code-server-host","private":true}' > package.json
npm install --save-exact "code-server@$CS_VERSION" --ignore-scripts --no-audit --no-fund

# 2. argon2 (required at startup by out/node/util.js): its install script is
#    `node-pre-gyp install --fallback-to-build` (tries GitHub first); build from source
log "build argon2"
(cd node_modules/argon2 &&
  npm_config_node_gyp="$NODE_GYP" node "$(node -p "require.resolve('@mapbox/node-pre-gyp/bin/node-pre-gyp', {paths: [process.cwd()]})")" \
    rebuild --loglevel=error >/dev/null)

# 3. lib/vscode production deps, scripts off (this is where the GitHub download was)
log "npm install in lib/vscode (--omit=dev --ignore-scripts)"
cd "$VS"
npm install --omit=dev --ignore-scripts --no-audit --no-fund

# 3a. @vscode/ripgrep expects node_modules/@vscode/ripgrep/bin/rg (lib/index.js); its
#     postinstall exits early when bin/ exists, so a later `npm rebuild` won't download.
log "ripgrep from Debian"
mkdir -p node_modules/@vscode/ripgrep/bin
cp -f "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
chmod 755 node_modules/@vscode/ripgrep/bin/rg

# 3b. native addons, built directly with npm's node-gyp (kerberos' own install script
#     would try prebuild-install from GitHub first; node-pty's postinstall runs
#     `npx node-gyp configure -f compile_commands_json`, which needs a registry fetch
#     and only makes an IDE file)
for m in "${NATIVE_MODULES[@]}"; do
  log "node-gyp rebuild $m"
  (cd "node_modules/$m" && node "$NODE_GYP" rebuild -j max --loglevel=error)
done
# drop intermediate objects, as node-pty's post-install.js would
rm -rf node_modules/node-pty/build/Release/obj.target node_modules/node-pty/build/Release/.deps

# 4. the symlinks from postinstall.sh
log "symlinks"
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)

# 5. lib/vscode/extensions: typescript for the built-in TS/JS language features
#    (its postinstall.mjs only trims the typescript package; devDeps are not needed)
log "npm install in lib/vscode/extensions (--omit=dev)"
cd "$VS/extensions"
npm install --omit=dev --no-audit --no-fund >/dev/null

log "smoke test"
if smoke_test; then
  touch "$STAMP"
  echo "OK: code-server $(cs_quiet --version | grep -v ' info ' | head -1) in $DEST ($(du -sh "$DEST" | cut -f1)), ${SECONDS}s"
else
  echo "smoke test failed" >&2
  exit 1
fi
