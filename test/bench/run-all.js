// `npm run bench`: runs every compiled benchmark (out/test/bench/*.bench.js) one after the
// other, each in its own process so one's memory does not colour another's figures. Every
// *.bench.js is found by name: hostile-events.bench.js (hostile event sizes) runs its full 60 s here
// unless HOSTILE_DURATION_S says otherwise; logSearch.bench.js (run log search) builds a
// 1,000,000-event log (about 125 MB in the temp folder, removed at the end); bundle.bench.js
// (loading the extension) builds the production bundle into a temporary directory, so it needs no
// `npm run build` first; upload-folder.bench.js (folder upload) uploads a folder of 1,000 x 20 KB and
// one of 50 x 20 MB beside curl --parallel and a curl loop (about 1 min); panel-latency.bench.js
// (from the server to the screen) starts code-server and Chromium through the UI harness (about 2 min; it
// prints SKIPPED without Chromium); activation.bench.js (loading the extension) opens cold code-server windows on
// the production bundle beside a minimal-extension floor (about 2 min); webview-search.bench.js (search in the panel)
// searches a 1,000,000-event run from the panel in Chromium through the real host side (about 1 min); typing.bench.js
// (typing beside a streaming panel) types into an editor in code-server alone, beside the run panel streaming
// 100 events/s and beside it idle (about 4 min; 6-7 at load 20); patchApply.bench.js
// (applying a patch) runs the code before beside the current one (about 2 min; `--new-only` skips the old).
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, '..', '..', 'out', 'test', 'bench');
const only = process.argv.slice(2);
const benches = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js') && (only.length === 0 || only.some((o) => f.includes(o))));
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const res = spawnSync(process.execPath, ['--expose-gc', path.join(dir, file)], { stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
