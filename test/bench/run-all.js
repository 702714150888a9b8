// `npm run bench`: runs every compiled benchmark (out/test/bench/*.bench.js) one after the
// other, each in its own process so one's memory does not colour another's figures. Every
// *.bench.js is found by name: hostile-events.bench.js (issue 10) runs its full 60 s here
// unless HOSTILE_DURATION_S says otherwise; panel-latency.bench.js (issue 16, item 5) starts
// code-server and Chromium through the UI harness (about 2 min; it prints SKIPPED without Chromium).
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, '..', '..', 'out', 'test', 'bench');
const only = process.argv.slice(2);
const benches = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.js') && (only.length === 0 || only.some((o) => f.includes(o))));
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const res = spawnSync(process.execPath, ['--expose-gc', path.join(dir, file)], { stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
