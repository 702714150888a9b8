#!/usr/bin/env bash
# Runs one benchmark on an older build and on this one, alternating, in one run (the live panel targets):
#   test/bench/compare-base.sh <base folder> <bench name> [rounds]
# The base folder is a built copy of an older commit outside the repo, e.g.
#   git archive e1f168e | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules &&
#   ln -s "$PWD/.cache" /tmp/base/.cache && (cd /tmp/base && npm run compile && npx tsc -p .)
# Each side runs its own compiled copy of the benchmark, which measures its own webview, extension
# bundle or API code. The machine's load is printed before each run.
set -euo pipefail
base=$(cd "$1" && pwd)
name=$2
rounds=${3:-2}
here=$(cd "$(dirname "$0")/../.." && pwd)
for ((i = 1; i <= rounds; i++)); do
  for side in base new; do
    dir=$base
    [ "$side" = new ] && dir=$here
    file=$(ls "$dir"/out/test/bench/*.bench.js | grep -- "$name" | head -1)
    echo "=== round $i, $side ($dir), $(date -u +%H:%M:%S) UTC, load: $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd "$dir" && node --expose-gc "$file")
  done
done
