// scripts/ensure-system-packages.sh, run for real with its pretend switches: what it says and how it
// exits when packages are missing, without uninstalling anything or calling apt.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { compiledTestDir, repoRoot } from '../../e2e/harness/paths';

const SCRIPT = path.join(repoRoot(), 'scripts', 'ensure-system-packages.sh');
const ALL = ['ripgrep', 'libkrb5-dev', 'build-essential', 'python3', 'chromium', 'curl', 'openssl', 'squid'];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the script with only the given switches, none inherited from the developer's shell. Always a
 * dry run, so that a script that stopped honouring a pretend switch cannot reach the real apt.
 */
function ensure(args: string[], vars: Record<string, string>): Result {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('ENSURE_SYSTEM_') && k !== 'CHROMIUM_PATH') {
      env[k] = v;
    }
  }
  const r = spawnSync('bash', [SCRIPT, ...args], {
    env: { ...env, ENSURE_SYSTEM_DRY_RUN: '1', ...vars },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/ensure-system-packages.sh', () => {
  it('says all are present and exits 0 when nothing is missing', () => {
    const r = ensure(['--for', 'test'], { ENSURE_SYSTEM_PRETEND_PRESENT: 'all', ENSURE_SYSTEM_AS_USER: '1' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /system packages for `npm test`: all 8 present/);
    assert.equal(r.stderr, '');
  });

  it('without root or sudo, prints the exact apt command and exits 1', () => {
    const r = ensure([], {
      ENSURE_SYSTEM_PRETEND_PRESENT: 'all',
      ENSURE_SYSTEM_PRETEND_MISSING: 'chromium,ripgrep',
      ENSURE_SYSTEM_AS_USER: '1',
    });
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /missing system packages for `npm test`:\n {2}ripgrep .*\n {2}chromium .*looked for \/usr\/bin\/chromium/,
    );
    assert.match(r.stderr, /Run this, then `npm test` again:/);
    assert.ok(
      r.stderr
        .split('\n')
        .includes('  sudo apt-get update && sudo apt-get install -y --no-install-recommends ripgrep chromium'),
      r.stderr,
    );
    assert.doesNotMatch(r.stdout, /installing/);
  });

  it('as root, installs the missing ones with one non-interactive apt-get (dry run)', () => {
    const r = ensure([], {
      ENSURE_SYSTEM_PRETEND_PRESENT: 'all',
      ENSURE_SYSTEM_PRETEND_MISSING: 'squid,libkrb5-dev',
      ENSURE_SYSTEM_AS_ROOT: '1',
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.ok(
      lines.includes('  env DEBIAN_FRONTEND=noninteractive apt-get update -qq -o DPkg::Lock::Timeout=300'),
      r.stdout,
    );
    assert.ok(
      lines.includes(
        '  env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 libkrb5-dev squid',
      ),
      r.stdout,
    );
    assert.equal(lines.filter((l) => /apt-get update/.test(l)).length, 1);
  });

  it("asks for only what `npm start` needs: code-server's build, not the test tools", () => {
    const vars = { ENSURE_SYSTEM_PRETEND_PRESENT: 'all', ENSURE_SYSTEM_AS_USER: '1' };
    const browserOnly = ensure(['--for', 'start'], {
      ...vars,
      ENSURE_SYSTEM_PRETEND_MISSING: 'chromium,curl,openssl,squid',
    });
    assert.equal(browserOnly.code, 0, browserOnly.stderr);
    assert.match(browserOnly.stdout, /`npm start`: all 4 present \(ripgrep libkrb5-dev build-essential python3\)/);

    const build = ensure(['--for', 'start'], { ...vars, ENSURE_SYSTEM_PRETEND_MISSING: 'chromium,build-essential' });
    assert.equal(build.code, 1);
    assert.match(
      build.stderr,
      /Run this, then `npm start` again:\n\n {2}sudo apt-get update && sudo apt-get install -y --no-install-recommends build-essential\n/,
    );
  });

  it('looks for Chromium where the browser harness does (CHROMIUM_PATH, else /usr/bin/chromium)', () => {
    const others = ALL.filter((p) => p !== 'chromium').join(',');
    const vars = { ENSURE_SYSTEM_PRETEND_PRESENT: others, ENSURE_SYSTEM_AS_USER: '1' };
    const absent = ensure([], { ...vars, CHROMIUM_PATH: path.join(repoRoot(), 'no-such-chromium') });
    assert.equal(absent.code, 1);
    assert.match(absent.stdout, /chromium .*looked for .*no-such-chromium/);
    assert.match(absent.stderr, /apt-get install -y --no-install-recommends chromium\n/);

    assert.equal(ensure([], { ...vars, CHROMIUM_PATH: process.execPath }).code, 0);
  });

  it('without apt-get, names the packages and exits 1 with no apt command', () => {
    const r = ensure(['--for', 'ci'], {
      ENSURE_SYSTEM_PRETEND_PRESENT: 'all',
      ENSURE_SYSTEM_PRETEND_MISSING: 'openssl',
      ENSURE_SYSTEM_NO_APT: '1',
      ENSURE_SYSTEM_AS_ROOT: '1',
    });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /`\.ci\/run`:\n {2}openssl /);
    assert.match(r.stderr, /apt-get is not available here: install those with your system's package manager/);
    assert.doesNotMatch(r.stdout + r.stderr, /apt-get (update|install)/);
  });

  it('refuses a bad --for or an unknown pretend name with exit 2', () => {
    assert.equal(ensure(['--for', 'everything'], {}).code, 2);
    assert.equal(ensure(['--for'], {}).code, 2);
    const typo = ensure([], { ENSURE_SYSTEM_PRETEND_MISSING: 'chrome' });
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown package 'chrome'/);
  });
});

describe('a missing Chromium in the browser harness', () => {
  // CHROMIUM is read from the environment when the module loads, hence a child process.
  function launchError(chromiumPath: string): string {
    const browserJs = path.join(compiledTestDir, 'e2e', 'harness', 'browser.js');
    const code = `try { require(${JSON.stringify(browserJs)}).chromiumExecutable(); console.log('found'); } catch (e) { console.log(e.stack); }`;
    const r = spawnSync(process.execPath, ['-e', code], {
      env: { ...process.env, CHROMIUM_PATH: chromiumPath },
      encoding: 'utf8',
    });
    return r.stdout.trim();
  }

  it('is one line naming the same apt command as the script, with no stack trace', () => {
    const out = launchError(path.join(repoRoot(), 'no-such-chromium'));
    assert.equal(out.split('\n').length, 1, out);
    assert.match(
      out,
      /^Chromium not found at CHROMIUM_PATH=.*no-such-chromium: run `sudo apt-get install -y --no-install-recommends chromium`/,
    );
  });

  it('is the same error for a file that is there but cannot run', () => {
    assert.match(
      launchError(path.join(repoRoot(), 'package.json')),
      /^Chromium not found at CHROMIUM_PATH=.*package\.json: run `sudo apt-get/,
    );
  });

  it('is no error when the file is there and executable', () => {
    assert.equal(launchError(process.execPath), 'found');
  });
});
