// A command's question (Revoke, Delete, Cancel Run...) is skipped only in the extension-host test
// run and only with `confirm: false`; no other code in src/ decides that on its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { questionSkipped } from '../../../src/commandSupport/questionSkip';

const SRC = path.resolve(__dirname, '../../../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('commandSupport/questionSkip', () => {
  it('skips only in the test run, and only for confirm: false', () => {
    assert.equal(questionSkipped(true, { connectorId: 'con_1', confirm: false }), true);
    assert.equal(questionSkipped(false, { connectorId: 'con_1', confirm: false }), false, 'any other caller is asked');
    for (const arg of [undefined, null, 'x', { confirm: 'false' }, { confirm: 0 }, {}, { confirm: true }]) {
      assert.equal(questionSkipped(true, arg), false, JSON.stringify(arg));
    }
  });

  it('no code in src/ reads `confirm === false` outside the one rule (Revoke, Delete, Cancel go through it)', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      if (relative === 'commandSupport/questionSkip.ts') {
        continue;
      }
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/confirm\s*===?\s*false|false\s*===?\s*\S*confirm\b/.test(line)) {
            found.push(`${relative}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    assert.deepEqual(found, []);
    const revoke = fs.readFileSync(path.join(SRC, 'agentAccess/accessSetup.ts'), 'utf8');
    assert.equal(
      (revoke.match(/questionSkipped\(deps\.trustedAutomation, /g) ?? []).length,
      2,
      'Revoke and Delete Webhook ask unless the test run says confirm: false',
    );
  });
});
