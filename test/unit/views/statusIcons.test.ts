// Status -> icon, colour, words, and which statuses are still worth polling.
import * as assert from 'node:assert/strict';
import { isTerminalStatus, isUnfinishedStatus, statusIcon, statusLabel } from '../../../src/views/statusIcons';
import { untranslated as t } from '../../../src/views/translate';

describe('views/statusIcons', () => {
  it('gives each known status its codicon and theme colour', () => {
    assert.deepEqual(statusIcon('running'), { id: 'sync~spin', color: 'charts.blue' });
    assert.deepEqual(statusIcon('completed'), { id: 'pass', color: 'testing.iconPassed' });
    assert.deepEqual(statusIcon('failed'), { id: 'error', color: 'testing.iconFailed' });
    assert.deepEqual(statusIcon('cancelled'), { id: 'circle-slash', color: 'disabledForeground' });
    assert.deepEqual(statusIcon('queued'), { id: 'clock', color: 'charts.yellow' });
  });

  it('gives unknown or missing statuses a neutral icon without colour', () => {
    assert.deepEqual(statusIcon('awaiting_approval'), { id: 'circle-outline' });
    assert.deepEqual(statusIcon(undefined), { id: 'circle-outline' });
  });

  it('treats the three end states and common spellings of them as terminal', () => {
    for (const s of ['completed', 'failed', 'cancelled', 'canceled', 'succeeded', 'COMPLETED']) assert.ok(isTerminalStatus(s), s);
    for (const s of ['queued', 'running', 'awaiting_approval', undefined]) assert.ok(!isTerminalStatus(s), String(s));
  });

  it('polls unknown statuses but not a record without a status', () => {
    assert.ok(isUnfinishedStatus('queued'));
    assert.ok(isUnfinishedStatus('running'));
    assert.ok(isUnfinishedStatus('awaiting_approval'));
    assert.ok(!isUnfinishedStatus('completed'));
    assert.ok(!isUnfinishedStatus(undefined));
    assert.ok(!isUnfinishedStatus(''));
  });

  it('translates the known statuses and shows others verbatim', () => {
    const shout = (m: string) => m.toUpperCase();
    assert.equal(statusLabel('running', shout), 'RUNNING');
    assert.equal(statusLabel('awaiting_approval', shout), 'awaiting_approval');
    assert.equal(statusLabel(undefined, t), undefined);
  });
});
