// Runs every test suite the README promises (unit, extension host, UI end to end) one after
// the other, echoes their output, and ends with one `N passed, N failed` line for all of them.
'use strict';
const { spawn } = require('child_process');

const suites = (process.env.TEST_SUITES || 'test:unit,test:ext,test:e2e').split(',');

function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    let out = '';
    const tee = (stream, dest) => stream.on('data', (d) => { out += d; dest.write(d); });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Counts from mocha's spec reporter ("N passing", "N failing") or our own "N passed, N failed". */
function counts(out) {
  const clean = out.replace(/\x1b\[[0-9;]*m/g, '');
  let passed = 0;
  let failed = 0;
  for (const m of clean.matchAll(/^\s*(\d+) passing\b/gm)) passed += Number(m[1]);
  for (const m of clean.matchAll(/^\s*(\d+) failing\b/gm)) failed += Number(m[1]);
  for (const m of clean.matchAll(/^\s*(?:\w+: )?(\d+) passed, (\d+) failed/gm)) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  return { passed, failed };
}

(async () => {
  let passed = 0;
  let failed = 0;
  const broken = [];
  for (const suite of suites) {
    console.log(`\n=== npm run ${suite} ===`);
    const { code, out } = await run(suite);
    const c = counts(out);
    passed += c.passed;
    failed += c.failed;
    console.log(`=== ${suite}: ${c.passed} passed, ${c.failed} failed (exit ${code}) ===`);
    if (code !== 0) {
      broken.push(suite);
      if (c.failed === 0) failed += 1; // a suite that died without counting still counts as a failure
    }
  }
  if (broken.length) console.log(`\nsuites that failed: ${broken.join(', ')}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(broken.length || failed ? 1 : 0);
})();
