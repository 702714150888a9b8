// Runs every test suite the README promises (unit, extension host, UI end to end) one after
// the other, echoes their output, and ends with one `N passed, N failed` line for all of them.
// The real-editor suites run once per tested VS Code: `test:ext@floor` is `npm run test:ext`
// with E2E_VSCODE=floor (test/e2e/vscode-versions.json says which versions those are).
// First it makes sure the system packages are there (installing them when it can), so a fresh
// machine stops at once with the command to run instead of minutes later in a suite.
'use strict';
const { spawn, spawnSync } = require('child_process');
const path = require('path');

const fs = require('fs');

const DEFAULT_SUITES = 'test:unit,test:ext@newest,test:ext@floor,test:e2e@newest,test:e2e@floor';
const suites = (process.env.TEST_SUITES || DEFAULT_SUITES)
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

/** "newest" -> "1.139", from the one file that pins the versions. */
function vscodeVersion(which) {
  const file = JSON.parse(fs.readFileSync(path.join(__dirname, 'e2e', 'vscode-versions.json'), 'utf8'));
  return file[which] || which;
}

/** `test:ext@floor` -> the npm script and the environment that picks its VS Code. */
function parseSuite(suite) {
  const [script, which] = suite.split('@');
  if (!which) return { script, env: {}, label: script };
  return { script, env: { E2E_VSCODE: which }, label: `${script} on VS Code ${vscodeVersion(which)}` };
}

function run(script, env) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      env: { ...process.env, ...env },
    });
    let out = '';
    const tee = (stream, dest) =>
      stream.on('data', (d) => {
        out += d;
        dest.write(d);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Counts from mocha's spec reporter ("N passing", "N failing") or our own "N passed, N failed". */
function counts(out) {
  // eslint-disable-next-line no-control-regex -- the escape that starts a terminal colour code
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

/** True when every system package is present or was just installed; otherwise the script said what to run. */
function systemPackagesReady() {
  const script = path.join(__dirname, '..', 'scripts', 'ensure-system-packages.sh');
  console.log('\n=== system packages (scripts/ensure-system-packages.sh --for test) ===');
  const result = spawnSync('bash', [script, '--for', 'test'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) console.error(`cannot run ${script}: ${result.error.message}`);
  return result.status === 0;
}

(async () => {
  if (!systemPackagesReady()) {
    console.log('\nno suite was run: the system packages above are missing');
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  }
  let passed = 0;
  let failed = 0;
  const broken = [];
  const times = [];
  for (const suite of suites) {
    const { script, env, label } = parseSuite(suite);
    console.log(`\n=== npm run ${script}${env.E2E_VSCODE ? ` (E2E_VSCODE=${env.E2E_VSCODE})` : ''} ===`);
    const started = Date.now();
    const { code, out } = await run(script, env);
    const took = `${Math.round((Date.now() - started) / 1000)} s`;
    times.push(`${label} ${took}`);
    const c = counts(out);
    passed += c.passed;
    failed += c.failed;
    console.log(`=== ${label}: ${c.passed} passed, ${c.failed} failed (exit ${code}) in ${took} ===`);
    if (code !== 0) {
      broken.push(label);
      if (c.failed === 0) failed += 1; // a suite that died without counting still counts as a failure
    }
  }
  console.log(`\ntimes: ${times.join('; ')}`);
  if (broken.length) console.log(`suites that failed: ${broken.join(', ')}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(broken.length || failed ? 1 : 0);
})();
