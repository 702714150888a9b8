#!/usr/bin/env bash
# The one list of system packages the project needs besides Node and npm, and the one place that
# installs them. `npm start`, `npm test`, .ci/run and test/e2e/install-code-server.sh call it first.
# Whatever is missing is installed with apt when it can be (root, or sudo without a password;
# never a prompt, stdin closed); otherwise it prints the exact command to run and exits 1 at once,
# before anything spends minutes on a build or a suite.
#
# usage: scripts/ensure-system-packages.sh [--for start|test|ci|code-server]   (default: test)
#   start        what `npm start` needs (code-server's native build)
#   code-server  the same, for test/e2e/install-code-server.sh
#   test, ci     everything: the above plus Chromium, curl, openssl and squid for the suites
# exit: 0 all present (or installed), 1 missing and not installed, 2 bad usage
#
# To try the paths without uninstalling anything (the unit test does this):
#   ENSURE_SYSTEM_PRETEND_MISSING=chromium,ripgrep   treat these as missing
#   ENSURE_SYSTEM_PRETEND_PRESENT=all|a,b            treat these as present (missing wins)
#   ENSURE_SYSTEM_DRY_RUN=1                          print the apt commands instead of running them
#   ENSURE_SYSTEM_AS_USER=1                          act as a user without root or passwordless sudo
#   ENSURE_SYSTEM_AS_ROOT=1                          act as root (with DRY_RUN, on any machine)
#   ENSURE_SYSTEM_NO_APT=1                           act as a machine without apt-get
set -euo pipefail

usage() {
  echo "usage: scripts/ensure-system-packages.sh [--for start|test|ci|code-server]" >&2
  exit 2
}

FOR=test
while [ $# -gt 0 ]; do
  case "$1" in
    --for) [ $# -ge 2 ] || usage; FOR=$2; shift 2 ;;
    --for=*) FOR=${1#--for=}; shift ;;
    *) usage ;;
  esac
done

case "$FOR" in
  start) GROUPS_WANTED=" code-server "; AGAIN="npm start" ;;
  code-server) GROUPS_WANTED=" code-server "; AGAIN="test/e2e/install-code-server.sh" ;;
  test) GROUPS_WANTED=" code-server test "; AGAIN="npm test" ;;
  ci) GROUPS_WANTED=" code-server test "; AGAIN=".ci/run" ;;
  *) usage ;;
esac

# Debian package | who needs it | what for
PACKAGES=(
  "ripgrep|code-server|rg for code-server's search (instead of its GitHub download)"
  "libkrb5-dev|code-server|headers for code-server's kerberos addon"
  "build-essential|code-server|make and g++ for code-server's native addons"
  "python3|code-server|node-gyp, which builds those addons"
  "chromium|test|the browser for the webview page tests, the extension-host and UI suites"
  "curl|test|the README's curl story test"
  "openssl|test|certificates for the TLS tests"
  "squid|test|the HTTP proxy for the proxy tests"
)

# squid lives in /usr/sbin, which a user's PATH often lacks
PATH="$PATH:/usr/sbin:/sbin"
has() { command -v "$1" >/dev/null 2>&1; }
deb_installed() { has dpkg-query && [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

present() {
  case "$1" in
    ripgrep) has rg ;;
    # the headers are what the build needs; dpkg only knows whether they came from Debian
    libkrb5-dev) deb_installed libkrb5-dev || [ -f /usr/include/gssapi/gssapi.h ] ;;
    build-essential) has make && has g++ ;;
    python3) has python3 ;;
    # the same path test/e2e/harness/browser.ts launches
    chromium) [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] ;;
    curl) has curl ;;
    openssl) has openssl ;;
    squid) has squid ;;
    *) return 1 ;;
  esac
}

PRETEND_MISSING=${ENSURE_SYSTEM_PRETEND_MISSING:-}
PRETEND_PRESENT=${ENSURE_SYSTEM_PRETEND_PRESENT:-}
known=" "
for entry in "${PACKAGES[@]}"; do known+="${entry%%|*} "; done
listed() { case ",$2," in *",$1,"*) return 0 ;; esac; return 1; }
for name in ${PRETEND_MISSING//,/ } ${PRETEND_PRESENT//,/ }; do
  [ "$name" = all ] || [[ "$known" == *" $name "* ]] || { echo "ensure-system-packages: unknown package '$name' in ENSURE_SYSTEM_PRETEND_*" >&2; exit 2; }
done

checked() {
  if listed "$1" "$PRETEND_MISSING"; then return 1; fi
  if [ "$PRETEND_PRESENT" = all ] || listed "$1" "$PRETEND_PRESENT"; then return 0; fi
  present "$1"
}

wanted=()
missing=()
for entry in "${PACKAGES[@]}"; do
  IFS='|' read -r name group why <<<"$entry"
  [[ "$GROUPS_WANTED" == *" $group "* ]] || continue
  wanted+=("$name")
  checked "$name" || missing+=("$name")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "system packages for \`$AGAIN\`: all ${#wanted[@]} present (${wanted[*]})"
  exit 0
fi

echo "missing system packages for \`$AGAIN\`:"
for entry in "${PACKAGES[@]}"; do
  IFS='|' read -r name group why <<<"$entry"
  [ "$name" = chromium ] && why+=" (looked for ${CHROMIUM_PATH:-/usr/bin/chromium})"
  if [[ " ${missing[*]} " == *" $name "* ]]; then printf '  %-16s %s\n' "$name" "$why"; fi
done

# another apt on the machine holds the lock for a while: wait for it rather than fail
UPDATE_ARGS=(update -qq -o DPkg::Lock::Timeout=300)
INSTALL_ARGS=(install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}")
USER_COMMAND="sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"

# how apt can be run: as root, through sudo without a password, or not at all
who=none
as=()
if [ -n "${ENSURE_SYSTEM_AS_USER:-}" ]; then
  who=none
elif [ -n "${ENSURE_SYSTEM_AS_ROOT:-}" ] || [ "$(id -u)" -eq 0 ]; then
  who=root as=(env DEBIAN_FRONTEND=noninteractive)
elif has sudo && sudo -n true 2>/dev/null </dev/null; then
  who=sudo as=(sudo -n env DEBIAN_FRONTEND=noninteractive)
fi

if [ -n "${ENSURE_SYSTEM_NO_APT:-}" ] || ! has apt-get; then
  echo "apt-get is not available here: install those with your system's package manager" \
    "(any Chromium will do with CHROMIUM_PATH=/path/to/it), then run \`$AGAIN\` again." >&2
  exit 1
fi
if [ "$who" = none ]; then
  echo "nothing was installed (not root, and no sudo without a password). Run this, then \`$AGAIN\` again:" >&2
  echo "" >&2
  echo "  $USER_COMMAND" >&2
  echo "" >&2
  has sudo || echo "(sudo is not installed here: run it as root without the \`sudo\`s)" >&2
  exit 1
fi

echo "installing them with apt (as $who): ${missing[*]}"
if [ -n "${ENSURE_SYSTEM_DRY_RUN:-}" ]; then
  echo "dry run, would run:"
  echo "  ${as[*]} apt-get ${UPDATE_ARGS[*]}"
  echo "  ${as[*]} apt-get ${INSTALL_ARGS[*]}"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# dpkg's per-package lines go to the log, shown only when apt fails
if ! "${as[@]}" apt-get "${UPDATE_ARGS[@]}" </dev/null >"$log" 2>&1 ||
  ! "${as[@]}" apt-get "${INSTALL_ARGS[@]}" </dev/null >>"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "apt-get failed (above). Run this yourself to see why, then \`$AGAIN\` again:" >&2
  echo "" >&2
  echo "  $USER_COMMAND" >&2
  echo "" >&2
  exit 1
fi

still=()
for name in "${missing[@]}"; do present "$name" || still+=("$name"); done
if [ "${#still[@]}" -gt 0 ]; then
  echo "apt-get installed them, yet these are still not found: ${still[*]}" >&2
  exit 1
fi
echo "installed: ${missing[*]}"
