// Status -> icon, colour, words, and which statuses and event names end a run: one rule for the
// tree, the status bar, the notifications, the panel and the event subscription.
import * as assert from 'node:assert/strict';
import { untranslated as t } from '../../../src/common/translate';
import {
  isTerminalEvent,
  isTerminalStatus,
  isUnfinishedStatus,
  statusIcon,
  statusLabel,
  TERMINAL_EVENTS,
  terminalEventStatus,
} from '../../../src/runEvents/runStatus';

describe('runEvents/runStatus', () => {
  it('gives each known status its codicon, theme colour and panel tone', () => {
    assert.deepEqual(statusIcon('running'), { id: 'sync', spin: true, color: 'charts.blue', tone: 'spin' });
    assert.deepEqual(statusIcon('completed'), { id: 'pass', spin: false, color: 'testing.iconPassed', tone: 'ok' });
    assert.deepEqual(statusIcon('failed'), { id: 'error', spin: false, color: 'testing.iconFailed', tone: 'error' });
    assert.deepEqual(statusIcon('cancelled'), {
      id: 'circle-slash',
      spin: false,
      color: 'disabledForeground',
      tone: 'muted',
    });
    assert.deepEqual(statusIcon('queued'), { id: 'clock', spin: false, color: 'charts.yellow', tone: 'muted' });
    assert.equal(statusIcon('awaiting_approval').id, 'bell-dot');
  });

  it('gives unknown statuses a question mark and missing ones an empty circle, never a crash', () => {
    assert.equal(statusIcon('paused_for_lunch').id, 'question');
    assert.equal(statusIcon(undefined).id, 'circle-outline');
    assert.equal(statusIcon(42).id, 'circle-outline');
    assert.equal(statusIcon({ nested: true }).id, 'circle-outline');
  });

  it('treats the three end states and common spellings of them as terminal', () => {
    for (const s of ['completed', 'failed', 'cancelled', 'canceled', 'succeeded', 'COMPLETED', 'expired']) {
      assert.ok(isTerminalStatus(s), s);
    }
    for (const s of ['queued', 'running', 'awaiting_approval', undefined, 7]) {
      assert.ok(!isTerminalStatus(s), String(s));
    }
  });

  it('knows the terminal event names and the status each stands for', () => {
    assert.deepEqual([...TERMINAL_EVENTS], ['run.completed', 'run.failed', 'run.cancelled']);
    for (const name of TERMINAL_EVENTS) {
      assert.ok(isTerminalEvent(name));
      assert.ok(isTerminalStatus(terminalEventStatus(name)), 'every terminal event means a terminal status');
    }
    assert.ok(!isTerminalEvent('run.paused'));
  });

  it('watches unknown statuses but not a record without a status', () => {
    assert.ok(isUnfinishedStatus('queued'));
    assert.ok(isUnfinishedStatus('running'));
    assert.ok(isUnfinishedStatus('awaiting_approval'));
    assert.ok(isUnfinishedStatus('paused_for_lunch'));
    assert.ok(!isUnfinishedStatus('completed'));
    assert.ok(!isUnfinishedStatus(undefined));
    assert.ok(!isUnfinishedStatus(''));
  });

  it('translates the known statuses and shows others verbatim', () => {
    const shout = (m: string) => m.toUpperCase();
    assert.equal(statusLabel('running', shout), 'RUNNING');
    assert.equal(statusLabel('awaiting_approval', t), 'waiting for approval');
    assert.equal(statusLabel('paused_for_lunch', shout), 'paused_for_lunch');
    assert.equal(statusLabel(undefined, t), undefined);
    assert.equal(statusLabel(5, t), undefined, 'a status that is not text is no status');
  });
});
