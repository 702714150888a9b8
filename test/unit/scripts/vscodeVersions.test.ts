// The tested VS Code versions are pinned once (test/e2e/vscode-versions.json): the installer and
// the harness must read the same pins, refuse a version that is not there, and a UI scenario that
// cannot run on one of the versions must be set aside with its reason, never run or passed.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  codeServerDir,
  codeServerNode,
  installerScript,
  type VsCodeTarget,
  vscodeTarget,
  vscodeTargets,
} from '../../e2e/harness/paths';
import { planScenarios } from '../../e2e/scenarios';
import { type Scenario } from '../../e2e/scenarios/types';

/** What the installer says about a version without installing anything (`--print node`). */
function installerNode(which: string): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.E2E_VSCODE;
  const r = spawnSync('bash', [installerScript(), '--vscode', which, '--print', 'node'], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

const real = (p: string): string => (fs.existsSync(p) ? fs.realpathSync(p) : p);

describe('the tested VS Code versions (test/e2e/vscode-versions.json)', () => {
  it('names a newest and a floor, the floor being the engines.vscode of package.json', () => {
    const targets = vscodeTargets();
    assert.deepEqual(
      targets.map((t) => t.role),
      ['newest', 'floor'],
    );
    const engines = (
      JSON.parse(fs.readFileSync(require.resolve('../../../../package.json'), 'utf8')) as {
        engines: { vscode: string };
      }
    ).engines.vscode;
    assert.equal(engines, `^${vscodeTarget('floor').vscode}.0`);
  });

  it('gives the installer and the harness the same Node for each version', () => {
    for (const target of vscodeTargets()) {
      for (const which of [target.vscode, target.role]) {
        const r = installerNode(which);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(real(r.stdout), real(codeServerNode(target)), `the Node for VS Code ${which}`);
      }
    }
    assert.notEqual(codeServerDir(vscodeTarget('newest')), codeServerDir(vscodeTarget('floor')));
  });

  it('refuses a version that is not pinned, naming those that are', () => {
    const r = installerNode('1.2');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown VS Code version "1\.2"; known: newest, floor, .*1\.100/);
    assert.throws(
      () => vscodeTarget('1.2'),
      /unknown VS Code version "1\.2" \(E2E_VSCODE\); known: newest, floor, .*1\.100/,
    );
  });
});

describe('planScenarios', () => {
  const scenario = (id: string, unsupportedOn?: (t: VsCodeTarget) => string | undefined): Scenario => ({
    id,
    title: id,
    unsupportedOn,
    run: async () => undefined,
  });
  const newestOnly = scenario('chat', (t) => (t.role === 'floor' ? 'the Chat view needs a newer VS Code' : undefined));
  const everywhere = scenario('sign-in');

  it('sets aside a scenario that cannot run on a version, with its reason', () => {
    const plan = planScenarios([newestOnly, everywhere], vscodeTarget('floor'));
    assert.deepEqual(
      plan.run.map((s) => s.id),
      ['sign-in'],
    );
    assert.deepEqual(
      plan.skipped.map((s) => [s.scenario.id, s.why]),
      [['chat', 'the Chat view needs a newer VS Code']],
    );
  });

  it('runs it, in order, where it can', () => {
    const plan = planScenarios([newestOnly, everywhere], vscodeTarget('newest'));
    assert.deepEqual(
      plan.run.map((s) => s.id),
      ['chat', 'sign-in'],
    );
    assert.deepEqual(plan.skipped, []);
  });
});
